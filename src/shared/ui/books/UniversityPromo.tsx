import { useSite } from '../app-context.tsx';

const newTab = { target: '_blank', rel: 'noopener noreferrer' } as const;

/** The spiritual university's promotional block on /books; both buttons open its site in a new tab. */
export function UniversityPromo() {
  const { universityUrl } = useSite();
  return (
    <section className="university-promo" aria-labelledby="university-promo-title">
      <h2 id="university-promo-title">Transform Your Life with Ancient Wisdom</h2>
      <p>
        Study meditation, mindful leadership and the timeless teachings behind these books at our partner spiritual
        university, online or on campus.
      </p>
      <div className="university-promo__actions">
        <a className="button button--primary" href={universityUrl} {...newTab}>
          Apply for Admission<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <a className="button button--ghost" href={universityUrl} {...newTab}>
          Learn More<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>
      <p className="university-promo__features">Accredited programs · Expert instructors · Rich curriculum</p>
    </section>
  );
}
