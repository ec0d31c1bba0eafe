/** Where a step-up code goes, shown masked (`a***@example.com`, `***1234`) as the upstream words it too. */
export function maskedDestination(to: string | null | undefined): string {
  if (!to) return '';
  const at = to.indexOf('@');
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  return `***${to.slice(-4)}`;
}
