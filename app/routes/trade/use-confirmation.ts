/**
 * The ticket's confirmation step (one-tap trading off): the side being asked about, or null. With JavaScript a valid
 * "Buy up" or "Buy low" opens it in place; without it the confirmation page does (`?confirm=`, `confirmSide`). A post, or any
 * navigation, that ends closes it, or opens it on a confirmation page.
 */
import { useNavigation } from '@remix-run/react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { usePreloadConfirm } from './order-confirm-slot';

export function useConfirmation({
  askFirst,
  confirmSide,
  isValid,
}: {
  /** Buy and sell open a confirmation first (one-tap trading off, signed in). */
  askFirst: boolean;
  /** The confirmation page asks about this side (an unconfirmed order without JavaScript). */
  confirmSide: number | null;
  /** The ticket's checks pass for these values. */
  isValid: (formData: FormData) => boolean;
}) {
  const navigation = useNavigation();
  const [asking, setAsking] = useState<number | null>(confirmSide);
  const cancel = useCallback(() => setAsking(null), []);
  usePreloadConfirm(askFirst);
  const busy = useRef(false);
  useEffect(() => {
    if (navigation.state !== 'idle') busy.current = true;
    else if (busy.current) {
      busy.current = false;
      setAsking(confirmSide);
    }
  }, [navigation.state, confirmSide]);

  /** Holds back a buy or sell that is to be confirmed first, and asks: true when it did (the form then sends nothing). */
  const holdToConfirm = (event: FormEvent<HTMLFormElement>): boolean => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!askFirst || asking !== null || submitter?.name !== 'side') return false;
    // A valid order asks first; an invalid one goes on to the checks, which show why.
    if (!isValid(new FormData(event.currentTarget, submitter))) return false;
    event.preventDefault();
    setAsking(Number(submitter.value));
    return true;
  };

  return { asking, cancel, holdToConfirm };
}
