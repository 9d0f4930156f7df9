import { PASSWORD_MIN_LENGTH } from '@vigil/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../messages/en.json';

// Synchronous initialisation: the catalogue is bundled, so the first render already has every text.
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  initAsync: false,
  // React escapes rendered text; escaping here as well would show entities such as &amp;. Texts may quote
  // the constants in defaultVariables, so that they follow the rules without callers passing them.
  interpolation: { escapeValue: false, defaultVariables: { passwordMinLength: PASSWORD_MIN_LENGTH } },
  // Keeps the browser console free of the library's promotional message.
  showSupportNotice: false,
});

export { i18n };
