import { useTranslation } from 'react-i18next';

/** An event time as the page shows it: short date, time to the second. */
export function useEventTime(): (value: string | null | undefined) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' });
  return (value) => {
    if (!value) return '—';
    const time = new Date(value);
    return Number.isNaN(time.getTime()) ? value : format.format(time);
  };
}
