/** Any unknown path: the 404 page, in the user's language (rendered by the root error boundary). */
export async function loader() {
  throw new Response('Not found', { status: 404 });
}

export default function NotFound() {
  return null;
}
