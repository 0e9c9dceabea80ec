/** Privacy Policy: ten numbered sections (spec §2), last updated April 17, 2025. */
import type { LegalDocument } from './types.ts';

export const privacyPolicy: LegalDocument = {
  lastUpdated: 'April 17, 2025',
  intro:
    'This policy explains what information we collect when you use our website and services, how we use and share it, and the choices you have.',
  sections: [
    {
      title: 'Information We Collect',
      paragraphs: ['We collect information you give us and information collected automatically when you visit.'],
      items: [
        'Contact details you provide, such as your name and email address, when you subscribe, donate or write to us.',
        'Usage data, such as pages viewed, links clicked and the time of your visit.',
        'Device data, such as browser type, operating system and IP address.',
      ],
    },
    {
      title: 'How We Use Your Information',
      paragraphs: [
        'We use information to provide and improve our services, process subscriptions and donations, send newsletters you request, answer your messages, measure readership and keep our site secure.',
      ],
    },
    {
      title: 'Information Sharing',
      paragraphs: [
        'We do not sell your personal information. We share it only with service providers who work on our behalf (such as payment processors and email services), when the law requires it, or to protect our rights and the safety of others.',
      ],
    },
    {
      title: 'Cookies and Tracking Technologies',
      paragraphs: [
        'We and our advertising partners use cookies and similar technologies to remember your preferences, understand how our site is used and show relevant advertising. You can block or delete cookies in your browser settings; some features may not work without them.',
      ],
    },
    {
      title: 'Your Choices',
      paragraphs: [
        'You can unsubscribe from our emails at any time using the link in each message, ask us to access, correct or delete your personal information, and opt out of personalized advertising through your browser or device settings.',
      ],
    },
    {
      title: 'Data Security',
      paragraphs: [
        'We use reasonable administrative, technical and physical safeguards to protect your information. No method of transmission or storage is completely secure, so we cannot guarantee absolute security.',
      ],
    },
    {
      title: 'International Data Transfers',
      paragraphs: [
        'Our services are operated in the United States. If you visit from another country, your information may be transferred to, stored and processed in the United States, where data protection laws may differ from those in your country.',
      ],
    },
    {
      title: 'Children’s Privacy',
      paragraphs: [
        'Our services are not directed to children under 13, and we do not knowingly collect personal information from children under 13. If you believe a child has given us such information, please contact us and we will delete it.',
      ],
    },
    {
      title: 'Changes to This Policy',
      paragraphs: [
        'We may update this policy from time to time. We will post the new version on this page and change the date at the top. Your continued use of our services after a change means you accept the updated policy.',
      ],
    },
    {
      title: 'Contact Us',
      paragraphs: ['If you have questions about this policy or your personal information, please contact us.'],
      contact: 'Email:',
    },
  ],
};
