/**
 * Take profit and stop loss side by side, the money at each under them, then the trailing stop's distance: the
 * field group of the order ticket and of the position popup. Each screen brings its own words and money notes.
 */
import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from '~/i18n/react';
import { Field } from './field';

type StopField = ComponentProps<typeof Field>['meta'];

/** The ids of the money notes under the two stops: each describes its field. */
export function stopMoneyIds(formId: string) {
  return { takeProfit: `${formId}-take-profit-money`, stopLoss: `${formId}-stop-loss-money` };
}

export function StopFields({
  formId,
  fields,
  words,
  pairClassName,
  type,
  autoComplete,
  money,
}: {
  formId: string;
  fields: { take_profit: StopField; stop_loss: StopField; trail_distance: StopField };
  /** The screen's namespace, and the group of its `takeProfit`, `stopLoss` and `notSet` (the trailing stop's are `trailing.*`). */
  words: { namespace: 'orders' | 'trade'; group: 'detail' | 'order' };
  /** The ticket lays the pair out as its other pairs of fields, the popup as its own. */
  pairClassName: string;
  /** The ticket's inputs are numbers; the popup's stay text. */
  type?: 'number';
  autoComplete?: 'off';
  /** The money at each stop: notes with the ids of `stopMoneyIds(formId)`. */
  money: ReactNode;
}) {
  const { t } = useTranslation(words.namespace);
  const ids = stopMoneyIds(formId);
  const input = { type, autoComplete, inputMode: 'decimal', placeholder: t(`${words.group}.notSet`) } as const;
  return (
    <>
      <div className={pairClassName}>
        <Field meta={fields.take_profit} label={t(`${words.group}.takeProfit`)} {...input} describedBy={ids.takeProfit} />
        <Field meta={fields.stop_loss} label={t(`${words.group}.stopLoss`)} {...input} describedBy={ids.stopLoss} />
      </div>
      {money}
      <Field
        meta={fields.trail_distance}
        label={t('trailing.label')}
        {...input}
        placeholder={t('trailing.off')}
        hint={t('trailing.hint')}
      />
    </>
  );
}
