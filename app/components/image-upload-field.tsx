/**
 * One image to send with a form (a payment proof, an ID photo). Without JavaScript it is a file input
 * that travels with the form post. With JavaScript the photo is shrunk on the phone (weak networks) and
 * sent at once with a progress bar; the form then carries only the returned reference.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '~/i18n/react';
import { useHydrated } from 'remix-utils/use-hydrated';
import { ErrorList } from './form-parts';

const UPLOAD_ENDPOINT = '/mine/upload';

export interface UploadedImage {
  /** The reference the upstream gave (submitted in the hidden field). */
  ref: string;
  /** Where this web server shows it. */
  preview: string;
}

type State = { kind: 'idle' } | { kind: 'sending'; percent: number } | { kind: 'failed'; message: string };

export function ImageUploadField({
  label,
  fileName,
  refName,
  uploaded,
  errors,
  hint,
}: {
  label: string;
  /** The file input's name (the post without JavaScript). */
  fileName: string;
  /** The hidden field that carries an uploaded image's reference. */
  refName: string;
  uploaded?: UploadedImage | null;
  errors?: string[] | null;
  hint?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const errorId = `${id}-errors`;
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<UploadedImage | null>(uploaded ?? null);
  const [state, setState] = useState<State>({ kind: 'idle' });
  useEffect(() => setImage(uploaded ?? null), [uploaded]);
  // Once the reference is in the form (rendered), the file need not travel a second time. Until then the
  // file stays, so a tap on submit during the upload still sends the photo.
  const sentFile = useRef(false);
  useEffect(() => {
    if (image && sentFile.current && input.current) input.current.value = '';
    sentFile.current = false;
  }, [image]);
  // The server's answer about this field replaces what the browser said before it.
  const serverErrors = errors?.join('|') ?? '';
  useEffect(() => setState((s) => (s.kind === 'failed' ? { kind: 'idle' } : s)), [serverErrors]);

  async function send(file: File) {
    setState({ kind: 'sending', percent: 0 });
    try {
      const { shrinkPhoto, postWithProgress } = await import('./image-upload.client');
      const small = await shrinkPhoto(file);
      const form = new FormData();
      const csrf = input.current?.form?.querySelector<HTMLInputElement>('input[name="csrf"]')?.value ?? '';
      form.append('csrf', csrf);
      form.append('file', small, small.name);
      const answer = await postWithProgress(UPLOAD_ENDPOINT, form, (percent) => setState({ kind: 'sending', percent }));
      if ('error' in answer) {
        setState({ kind: 'failed', message: answer.error });
        return;
      }
      setImage(answer);
      setState({ kind: 'idle' });
      sentFile.current = true;
    } catch {
      setState({ kind: 'failed', message: t('upload.failed') });
    }
  }

  const shownErrors = [...(state.kind === 'failed' ? [state.message] : []), ...(errors ?? [])];
  return (
    <div className="field image-field">
      <label htmlFor={id}>{label}</label>
      {image ? (
        <div className="image-done">
          <img src={image.preview} alt={t('upload.preview')} width={64} height={64} />
          <span>{t('upload.done')}</span>
          <input type="hidden" name={refName} value={image.ref} />
        </div>
      ) : null}
      <input
        ref={input}
        id={id}
        type="file"
        name={fileName}
        accept="image/jpeg,image/png,image/webp"
        aria-invalid={shownErrors.length > 0 || undefined}
        aria-describedby={shownErrors.length > 0 ? errorId : undefined}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (hydrated && file) void send(file);
        }}
      />
      {hint ? <p className="muted field-hint">{hint}</p> : null}
      {state.kind === 'sending' ? (
        <progress max={100} value={state.percent} aria-label={t('upload.sending')}>
          {state.percent}%
        </progress>
      ) : null}
      <ErrorList id={errorId} errors={shownErrors} />
    </div>
  );
}
