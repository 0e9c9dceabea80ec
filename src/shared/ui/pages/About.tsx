import { aboutIntro, aboutMission, aboutQuote, aboutSupport, aboutTeam, aboutValues } from '../../content/about.ts';
import { useSite } from '../app-context.tsx';
import { PullQuote } from '../components/PullQuote.tsx';
import { SupportPanel } from '../components/SupportPanel.tsx';

export function AboutPage() {
  const { masthead } = useSite();
  return (
    <div className="container page prose">
      <h1>About Us</h1>
      <p className="lead">{`${masthead} ${aboutIntro}`}</p>
      <section aria-labelledby="mission">
        <h2 id="mission">Our Mission</h2>
        <p>{aboutMission}</p>
      </section>
      <PullQuote quote={aboutQuote} />
      <section aria-labelledby="values">
        <h2 id="values">Our Values</h2>
        <ul className="value-list">
          {aboutValues.map((v) => (
            <li key={v.title}>
              <strong>{`${v.title}:`}</strong>
              {` ${v.text}`}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="team">
        <h2 id="team">Our Team</h2>
        <p>{aboutTeam}</p>
      </section>
      <SupportPanel title="Support Our Work" text={aboutSupport} subscribeLabel="Subscribe Today" />
    </div>
  );
}
