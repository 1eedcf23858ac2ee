import sharp from 'sharp';
import { ANSWERED, expect, postedPhoto, test } from './support';

/**
 * The live camera with Chromium's fake device (a generated test pattern) and auto-accepted
 * permission. Launch options force their own worker, so this lives in its own file.
 */
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
});

// skipped before the test's fixtures are set up: no browser and no server for nothing
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'the camera needs JavaScript');

test('start, capture and identify a frame; the card offers the full results', async ({ page }) => {
  await page.goto('/');
  const identifier = page.getByTestId('identifier').first();
  await expect(identifier.getByText('Click the camera to start')).toBeVisible();
  await identifier.getByRole('button', { name: 'Click the camera to start' }).click();
  await expect(identifier.getByRole('button', { name: 'Capture & Identify' })).toBeVisible();
  await expect(identifier.getByRole('button', { name: 'Stop' })).toBeVisible();
  // the fake camera streams frames: capture one
  await page.waitForFunction(() => ((document.querySelector('video') as HTMLVideoElement | null)?.videoWidth ?? 0) > 0);
  const frame = await postedPhoto(page, () => identifier.getByRole('button', { name: 'Capture & Identify' }).click());
  // the frame is asked for at 1920 x 1080 (browsers give 640 x 480 otherwise) and sent as a JPEG of at most 1280 px
  expect(frame.type).toBe('image/jpeg');
  const { width = 0, height = 0 } = await sharp(frame.bytes).metadata();
  expect(Math.max(width, height)).toBe(1280);
  await expect(page.getByTestId('toast')).toBeVisible(ANSWERED);
  await expect(page.getByTestId('identification-card')).toBeVisible();
  await expect(page.getByRole('button', { name: 'View Full Results' })).toBeVisible();

  // Stop brings the idle prompt back
  await page.getByTestId('identification-card').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Click the camera to start' }).click();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByText('Click the camera to start')).toBeVisible();
});
