import { useEffect, useRef } from 'react';
import { contactFormCategory, contactIntro, contactSections } from '../../content/contact.ts';
import type { ContactChannel } from '../../site.ts';
import { useSite } from '../app-context.tsx';
import { useNearViewport } from '../use-near-viewport.ts';

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

/**
 * The third-party form (spec: a frame 789 px high, and its form-embed script), loaded as it nears
 * the screen rather than with the page: on a phone it sits far below the fold, and a frame the
 * parser meets competes with the page's own first paint (issue 12). Its box is reserved, so
 * nothing moves when it arrives; until then, and without scripts, a plain link opens the form.
 */
function ContactForm({ formUrl, scriptUrl }: { formUrl: string; scriptUrl: string }) {
  const box = useRef<HTMLDivElement>(null);
  const near = useNearViewport(box, '600px 0px');

  // The form-embed script belongs to this page only, and comes with the frame; removed on unmount.
  useEffect(() => {
    if (!near) return;
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    document.body.append(script);
    return () => script.remove();
  }, [near, scriptUrl]);

  return (
    <div ref={box} className="contact-form__box">
      {near ? (
        <iframe
          id="contact-form-frame"
          className="contact-form__frame"
          src={formUrl}
          title="Contact form: local news and community"
          height={789}
        />
      ) : (
        <p className="contact-form__fallback">
          <a href={formUrl}>Open the contact form</a>
        </p>
      )}
    </div>
  );
}

export function ContactPage() {
  const site = useSite();
  const formUrl = new URL(site.contactFormUrl);
  formUrl.searchParams.set('category', contactFormCategory);

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
                    {`${t.text} `}
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
        {/* A third party's frame shows nothing of its own when it cannot load: say what belongs here. */}
        <p className="embed-note">
          {'Our contact form is hosted by a form service. If it does not appear, '}
          <a href={formUrl.href}>open the contact form</a>.
        </p>
        <ContactForm formUrl={formUrl.href} scriptUrl={site.contactFormScriptUrl} />
      </section>
    </div>
  );
}
