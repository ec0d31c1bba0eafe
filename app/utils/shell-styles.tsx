import { createContext, useContext } from 'react';

/**
 * The shell's stylesheet is written into the document rather than linked (decision 0020): a first visit on a
 * slow link paints as soon as the HTML is in, one round trip sooner, without waiting for a stylesheet request.
 * The server provides the text (entry.server); in the browser the same text is read back from the document,
 * so hydration finds what the server wrote and never touches it.
 */
const SHELL_STYLE_ID = 'shell-css';

/** The server's render provides the text (`<ShellCss.Provider value={shellCss}>`). */
export const ShellCss = createContext<string | null>(null);

export function ShellStyles() {
  const css = useContext(ShellCss) ?? document.getElementById(SHELL_STYLE_ID)?.textContent ?? '';
  return <style id={SHELL_STYLE_ID} dangerouslySetInnerHTML={{ __html: css }} />;
}
