import { Fragment, type ReactNode } from 'react';
import type { AdRowSpec, LegalDocument } from '../../content/types.ts';
import { useSite } from '../app-context.tsx';
import { AdRow } from './AdRow.tsx';
import { HouseWidget } from './HouseWidget.tsx';

/** A legal page: title, date, numbered sections, optional ad rows after given section numbers. */
export function LegalDocumentView({
  title,
  doc,
  adBreaks,
}: {
  title: string;
  doc: LegalDocument;
  adBreaks?: ReadonlyMap<number, AdRowSpec>;
}) {
  const { contacts } = useSite();
  const legal = contacts.legal.email;
  return (
    <article className="container page legal">
      <h1>{title}</h1>
      <p className="legal__updated">Last updated: {doc.lastUpdated}</p>
      <p>{doc.intro}</p>
      {doc.sections.map((section, i): ReactNode => {
        const n = i + 1;
        const ads = adBreaks?.get(n);
        return (
          <Fragment key={n}>
            <section aria-labelledby={`s${n}`}>
              <h2 id={`s${n}`}>
                {n}. {section.title}
              </h2>
              {section.paragraphs.map((p) => (
                <p key={p}>{p}</p>
              ))}
              {section.items && (
                <ul>
                  {section.items.map((item) => (
                    <li key={item}>{item}</li>
                  ))}
                </ul>
              )}
              {section.contact && (
                <p>
                  {`${section.contact} `}
                  <a href={`mailto:${legal}`}>{legal}</a>
                </p>
              )}
            </section>
            {ads && <AdRow row={ads} widget={<HouseWidget />} />}
          </Fragment>
        );
      })}
    </article>
  );
}
