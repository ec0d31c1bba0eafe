/**
 * The page of an account form with a verification code (sign-up, password reset, password change): its header,
 * a plain post form that Enter sends with its main intent, the CSRF token, the form's error, its fields, the
 * submit button and a link under the form.
 */
import { getFormProps, type FormMetadata } from '@conform-to/react';
import { Form, Link } from '@remix-run/react';
import authCss from '~/styles/auth.css?inline';
import { CsrfInput, FormError, SubmitButton } from './form-parts';
import { PageHeader } from './page-header';
import { DefaultSubmit } from './verification-code';

export function AuthFormPage<Schema extends Record<string, unknown>>({
  title,
  back,
  form,
  intent,
  submitLabel,
  hidden = {},
  link,
  children,
}: {
  title: string;
  back: string;
  form: FormMetadata<Schema, string[]>;
  /** What the submit button posts as `intent` (and Enter in any field). */
  intent: string;
  submitLabel: string;
  /** Hidden fields, after the CSRF token. */
  hidden?: Record<string, string>;
  link?: { to: string; label: string };
  children: React.ReactNode;
}) {
  return (
    <main className="page">
      {/* The screen's stylesheet comes with its markup (decision 0020). */}
      <style dangerouslySetInnerHTML={{ __html: authCss }} />
      <PageHeader title={title} back={back} />
      <Form method="post" {...getFormProps(form)} className="form">
        <DefaultSubmit value={intent} />
        <CsrfInput />
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <FormError id={form.errorId} errors={form.errors} />
        {children}
        <SubmitButton name="intent" value={intent}>
          {submitLabel}
        </SubmitButton>
      </Form>
      {link ? (
        <p className="link-row">
          <Link to={link.to}>{link.label}</Link>
        </p>
      ) : null}
    </main>
  );
}
