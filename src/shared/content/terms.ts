/** Terms of Service: eleven numbered sections (spec §2), last updated April 17, 2025. */
import { ad } from './ads.ts';
import type { AdRowSpec, LegalDocument } from './types.ts';

export const termsOfService: LegalDocument = {
  lastUpdated: 'April 17, 2025',
  intro: 'Please read these terms carefully. They govern your use of our website and services.',
  sections: [
    {
      title: 'Acceptance of Terms',
      paragraphs: [
        'By accessing or using our website and services, you agree to be bound by these Terms of Service. If you do not agree, please do not use our services.',
      ],
    },
    {
      title: 'Description of Service',
      paragraphs: [
        'We provide news, information, radio and related content online. We may change, suspend or discontinue any part of the service at any time without notice.',
      ],
    },
    {
      title: 'User Accounts',
      paragraphs: ['Some features may require registration. If you create an account, you agree to:'],
      items: [
        'Provide accurate and complete information.',
        'Keep your login credentials secure and confidential.',
        'Accept responsibility for all activity that occurs under your account.',
      ],
    },
    {
      title: 'Subscription and Payments',
      paragraphs: [
        'Some content may require a paid subscription. Subscription fees are billed in advance. We may change our fees with notice to you before the change takes effect.',
      ],
    },
    {
      title: 'User Conduct',
      paragraphs: ['You agree not to:'],
      items: [
        'Violate any applicable law or regulation.',
        'Infringe the intellectual property or other rights of others.',
        'Interfere with or disrupt the service or its servers.',
        'Distribute viruses, malware or other harmful content.',
        'Impersonate any person or entity.',
        'Collect information about other users without their consent.',
      ],
    },
    {
      title: 'Intellectual Property',
      paragraphs: [
        'All content on our website, including text, photographs, graphics, logos and audio, is owned by us or our licensors and protected by copyright and other laws. You may not reproduce or distribute it without our written permission.',
      ],
    },
    {
      title: 'User Content',
      paragraphs: [
        'By submitting comments, letters, photos or other content, you grant us a non-exclusive, royalty-free, perpetual, irrevocable, worldwide license to use, reproduce, edit, publish and distribute it in any media.',
      ],
    },
    {
      title: 'Disclaimers and Limitations',
      paragraphs: [
        'Our services are provided “as is” and “as available” without warranties of any kind. To the fullest extent permitted by law, we are not liable for any indirect, incidental, special or consequential damages arising from your use of the services.',
      ],
    },
    {
      title: 'Governing Law',
      paragraphs: [
        'These terms are governed by the laws of the State of Illinois, without regard to its conflict of law provisions.',
      ],
    },
    {
      title: 'Changes to Terms',
      paragraphs: [
        'We may revise these terms at any time by posting an updated version on this page. Your continued use of the services after a change means you accept the revised terms.',
      ],
    },
    {
      title: 'Contact Information',
      paragraphs: ['If you have questions about these terms, please contact our legal team.'],
      contact: 'Email:',
    },
  ],
};

/** After these section numbers: one banner on phones; banner, house widget, banner on desktop (spec §2). */
const adBreak = (first: number, second: number): AdRowSpec => ({
  mobile: 1,
  items: [ad('generic', 250, first), { kind: 'widget' }, ad('generic', 250, second)],
});
export const termsAdBreaks: ReadonlyMap<number, AdRowSpec> = new Map([
  [3, adBreak(6079445, 1452360)],
  [6, adBreak(6079446, 1452361)],
  [9, adBreak(6079448, 1452363)],
]);
