/** What the order popup's forms share. */

/**
 * A popup form's props with `onSend` told when the form really goes out: Remix sends it right after this handler
 * unless the checks prevented it. This is synchronous, unlike the navigation state React renders later.
 */
export function sentProps<P extends { onSubmit: (event: React.FormEvent<HTMLFormElement>) => void }>(props: P, onSend: () => void): P {
  return {
    ...props,
    onSubmit: (event: React.FormEvent<HTMLFormElement>) => {
      props.onSubmit(event);
      if (!event.defaultPrevented) onSend();
    },
  };
}

/** The popup forms' checks come after the page, with zod (decision 0028); the action checks every post. */
export const loadSchemas = () => import('./schema');
