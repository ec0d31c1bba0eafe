/**
 * What was typed into a form the server drew, carried into the component drawn in its place once its code comes
 * (components/hydrate-later's `carry`). Apart from hydrate-later, which is in every page's first script: only a
 * page with such a form loads this.
 */
type Typed = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
const TYPED = 'input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select';
const isChoice = (field: Typed): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === 'radio' || field.type === 'checkbox');
/** A field by its form's place in the island (a form's id may be React's, drawn anew), its name and, for a choice, its value. */
const keyOf = (island: HTMLElement, field: Typed) =>
  `${[...island.querySelectorAll('form')].indexOf(field.form!)}|${field.name}|${isChoice(field) ? field.value : ''}`;

/**
 * What was typed and chosen in an island's forms, and where the caret was: put back into the component drawn in
 * its place, as if typed there (the events let the form's code see it), so a form that comes late loses nothing.
 */
export function carryFields(island: HTMLElement): (() => void) | null {
  const fields = new Map<string, { value: string; checked: boolean }>();
  for (const field of island.querySelectorAll<Typed>(TYPED))
    if (field.name) fields.set(keyOf(island, field), { value: field.value, checked: 'checked' in field && field.checked });
  const focused = island.contains(document.activeElement) ? (document.activeElement as Typed) : null;
  const focusKey = focused?.name ? keyOf(island, focused) : null;
  const caret = focused && 'selectionStart' in focused ? [focused.selectionStart, focused.selectionEnd] : null;
  // A number field tells no caret, and a field focused anew puts it first: the next digit would go before the
  // others (0.1 then 5 would read 50.1). Not while such a field is being typed in: once it is left.
  if (focused instanceof HTMLInputElement && !isChoice(focused) && caret?.[0] == null) return null;
  return () => {
    const changed: Typed[] = [];
    for (const field of island.querySelectorAll<Typed>(TYPED)) {
      const key = keyOf(island, field);
      const was = field.name ? fields.get(key) : undefined;
      if (!was) continue;
      if (isChoice(field)) {
        // A click, as a person would: React and the form's code see the change.
        if (field.checked !== was.checked) field.click();
      } else if (field.value !== was.value) {
        // The prototype's setter: React's own would note the value as already seen and miss the event.
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')!.set!.call(field, was.value);
        changed.push(field);
      }
      if (key === focusKey) {
        field.focus();
        if (caret?.[0] != null && 'setSelectionRange' in field) field.setSelectionRange(caret[0], caret[1] ?? null);
      }
    }
    for (const field of changed) {
      field.dispatchEvent(new Event('input', { bubbles: true }));
      if (field instanceof HTMLSelectElement) field.dispatchEvent(new Event('change', { bubbles: true }));
    }
  };
}
