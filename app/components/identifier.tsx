import { Form } from '@remix-run/react';

/**
 * The identifier. Without JavaScript it is a multipart form whose file input opens the phone
 * camera (capture="environment") and posts to /identify, which renders the result on the server.
 */
export function Identifier() {
  return (
    <Form method="post" action="/identify" encType="multipart/form-data" className="card space-y-3 p-4" reloadDocument>
      <label htmlFor="identify-photo" className="label">
        Photo of your pin
      </label>
      <input id="identify-photo" name="image" type="file" accept="image/*" capture="environment" required className="input" />
      <button type="submit" className="btn-primary w-full">
        Identify
      </button>
    </Form>
  );
}
