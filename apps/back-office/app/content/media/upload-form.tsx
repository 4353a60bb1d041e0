'use client';

import { uploadMedia } from '../../content-actions';
import { Form } from '../../_components/form';

/** An image with its alt text, posted through the app's server to the API's media upload. */
export function UploadForm() {
  return (
    <Form
      action={uploadMedia}
      name="Upload an image"
      submit="Upload"
      success="Uploaded: it is in the library below."
      fields={[
        { name: 'file', label: 'Image (JPEG, PNG or WebP, up to 20 MB)', type: 'file', accept: 'image/jpeg,image/png,image/webp', required: true },
        { name: 'alt', label: 'Alt text', required: true, hint: "What the image shows, for people who cannot see it (the marketplace's default language)." },
      ]}
    />
  );
}
