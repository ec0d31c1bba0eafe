/**
 * The picture code of sign-up when the base settings ask for it (verify_reg_type 2). The picture's id
 * travels as `key`. "New picture" posts the form without JavaScript (what was typed comes back); with
 * JavaScript it only reloads the page's data, which draws a new picture.
 */
import type { FieldMetadata } from '@conform-to/react';
import { useRevalidator } from '@remix-run/react';
import { useTranslation } from '~/i18n/react';
import { Field } from '~/components/field';

export const NEW_PICTURE_INTENT = 'new-picture';

export function CaptchaField({ meta, picture }: { meta: FieldMetadata<string | undefined>; picture: { id: string; b64s: string } }) {
  const { t } = useTranslation('auth');
  const revalidator = useRevalidator();
  return (
    <>
      <input type="hidden" name="key" value={picture.id} />
      <div className="captcha-row">
        <img src={picture.b64s} width={150} height={50} alt={t('captcha.picture')} />
        <button
          type="submit"
          name="intent"
          value={NEW_PICTURE_INTENT}
          formNoValidate
          className="button secondary"
          disabled={revalidator.state !== 'idle'}
          onClick={(event) => {
            event.preventDefault();
            revalidator.revalidate();
          }}
        >
          {t('captcha.refresh')}
        </button>
      </div>
      {/* A new picture spends the old answer: a fresh, empty input. */}
      <Field key={picture.id} meta={meta} label={t('fields.captcha')} autoComplete="off" />
    </>
  );
}
