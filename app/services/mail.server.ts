/**
 * Outgoing e-mail through nodemailer, on when SMTP_URL is set (smtp://user:pass@host:587,
 * smtps://... for TLS). Without it nothing is sent: the callers say so and offer another way.
 */
import nodemailer, { type Transporter } from 'nodemailer';

let transport: { url: string; transporter: Transporter } | null = null;

export function mailConfigured(): boolean {
  return !!process.env.SMTP_URL;
}

function transporter(): Transporter {
  const url = process.env.SMTP_URL;
  if (!url) throw new Error('SMTP_URL is not set');
  if (!transport || transport.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  return transport.transporter;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export async function sendMail(mail: Mail): Promise<void> {
  await transporter().sendMail({ from: process.env.MAIL_FROM || 'PinDex <no-reply@pindex.invalid>', ...mail });
}
