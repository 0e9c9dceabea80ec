import { privacyPolicy } from '../../content/privacy.ts';
import { LegalDocumentView } from '../components/LegalDocumentView.tsx';

export function PrivacyPage() {
  return <LegalDocumentView title="Privacy Policy" doc={privacyPolicy} />;
}
