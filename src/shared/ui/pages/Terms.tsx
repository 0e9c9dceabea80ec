import { termsAdBreaks, termsOfService } from '../../content/terms.ts';
import { LegalDocumentView } from '../components/LegalDocumentView.tsx';

export function TermsPage() {
  return <LegalDocumentView title="Terms of Service" doc={termsOfService} adBreaks={termsAdBreaks} />;
}
