import { useSite } from '../app-context.tsx';

/** Subscribe (no shown action, spec §1) and donate (the donation site, new tab). */
export function SupportPanel({ title, text, subscribeLabel }: { title: string; text: string; subscribeLabel: string }) {
  const { donationUrl } = useSite();
  return (
    <section className="support-panel" aria-labelledby="support-title">
      <h2 id="support-title">{title}</h2>
      <p>{text}</p>
      <div className="support-panel__actions">
        <button type="button" className="button button--primary">
          {subscribeLabel}
        </button>
        <a className="button button--ghost" href={donationUrl} target="_blank" rel="noopener noreferrer">
          Make a Donation<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>
    </section>
  );
}
