import { print } from 'graphql';
import { SendMessageDocument } from './documents.ts';

export interface UploadedFile {
  name: string;
  type: string;
  content: string | Uint8Array;
}

/** A GraphQL multipart request, as a client sends files: operations, map, then the files. */
export async function sendWithFiles(
  server: { url: string },
  token: string,
  variables: { threadId: string; text: string },
  files: UploadedFile[],
) {
  const form = new FormData();
  form.append(
    'operations',
    JSON.stringify({ query: print(SendMessageDocument), variables: { ...variables, attachments: files.map(() => null) } }),
  );
  form.append('map', JSON.stringify(Object.fromEntries(files.map((_, index) => [String(index), [`variables.attachments.${index}`]]))));
  files.forEach((file, index) => form.append(String(index), new Blob([file.content as BlobPart], { type: file.type }), file.name));
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'graphql-require-preflight': '1' },
    body: form,
  });
  return (await response.json()) as { data?: { sendMessage: Record<string, unknown> }; errors?: unknown[] };
}

