import {
  careerBenefits,
  careersCulture,
  careersIntro,
  careerValues,
  generalApplication,
  jobOpenings,
} from '../../content/careers.ts';

export function CareersPage() {
  return (
    <div className="container page careers">
      <h1>Careers</h1>
      <p className="lead">{careersIntro}</p>
      <section aria-labelledby="why">
        <h2 id="why">Why Work With Us</h2>
        <ul className="value-cards">
          {careerValues.map((v) => (
            <li key={v.title} className="value-card">
              <h3>{v.title}</h3>
              <p>{v.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="openings">
        <h2 id="openings">Open Positions</h2>
        <ul className="job-list">
          {jobOpenings.map((job, i) => (
            <li key={job.title} className="job">
              <h3 id={`job-${i}`}>{job.title}</h3>
              <p className="job__facts">
                <span>{job.department}</span> · <span>{job.location}</span> · <span>{job.type}</span>
              </p>
              <p>{job.description}</p>
              <button type="button" className="button button--primary" aria-describedby={`job-${i}`}>
                Apply Now
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="benefits">
        <h2 id="benefits">Benefits</h2>
        <ul className="benefit-list">
          {careerBenefits.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="culture">
        <h2 id="culture">Our Culture</h2>
        <p>{careersCulture}</p>
      </section>
      <section className="support-panel" aria-labelledby="general">
        <h2 id="general">General Application</h2>
        <p>{generalApplication}</p>
        <button type="button" className="button button--primary">
          General Application
        </button>
      </section>
    </div>
  );
}
