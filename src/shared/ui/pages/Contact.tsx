import { useEffect } from 'react';
import { contactFormCategory, contactIntro, contactSections } from '../../content/contact.ts';
import type { ContactChannel } from '../../site.ts';
import { useSite } from '../app-context.tsx';

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

function Channel({ channel }: { channel: ContactChannel }) {
  return (
    <p className="contact-card__lines">
      Email: <a href={`mailto:${channel.email}`}>{channel.email}</a>
      {channel.phones.map((phone) => (
        <span key={phone}>
          <br />
          Phone: <a href={telHref(phone)}>{phone}</a>
        </span>
      ))}
    </p>
  );
}

export function ContactPage() {
  const site = useSite();
  const formUrl = new URL(site.contactFormUrl);
  formUrl.searchParams.set('category', contactFormCategory);

  // The form-embed script belongs to this page only: added on mount, removed on unmount.
  useEffect(() => {
    const script = document.createElement('script');
    script.src = site.contactFormScriptUrl;
    script.async = true;
    document.body.append(script);
    return () => script.remove();
  }, [site.contactFormScriptUrl]);

  return (
    <div className="container page contact">
      <h1>Contact Us</h1>
      <p className="lead">{contactIntro}</p>
      <div className="contact-grid">
        {contactSections.map((s) => {
          const channel = site.contacts[s.key];
          return (
            <section key={s.key} className="contact-card" aria-labelledby={`c-${s.key}`}>
              <h2 id={`c-${s.key}`}>{s.title}</h2>
              <p>{s.text}</p>
              {s.topics?.map((t) => (
                <div key={t.title} className="contact-card__topic">
                  <h3>{t.title}</h3>
                  <p>
                    {t.text}{' '}
                    <a href={`mailto:${channel.email}?subject=${encodeURIComponent(t.subject)}`}>
                      Email {t.title.toLowerCase()}
                    </a>
                  </p>
                </div>
              ))}
              <Channel channel={channel} />
            </section>
          );
        })}
      </div>
      <section className="contact-form" aria-labelledby="c-form">
        <h2 id="c-form">Send Us a Message</h2>
        <iframe
          id="contact-form-frame"
          className="contact-form__frame"
          src={formUrl.href}
          title="Contact form: local news and community"
          height={789}
          loading="lazy"
        />
      </section>
    </div>
  );
}
