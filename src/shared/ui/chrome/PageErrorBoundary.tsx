/**
 * Around the page region only (Site.tsx): a page whose code cannot be loaded (offline, or a deploy
 * removed its chunk) or that throws shows a short message inside the site's frame, below the radio's
 * player, so the header, the footer and the audio stay. `resetKey` changes with every navigation
 * asked for (the same link again included): the page is then tried again, without a reload.
 */
import { Component, type ReactNode } from 'react';
import { PrefetchLink } from '../PrefetchLink.tsx';
import { useSite } from '../app-context.tsx';
import { useNavigation } from '../navigation.tsx';

interface Props {
  resetKey: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
  resetKey: string;
}

export class PageErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? <PageUnavailable /> : this.props.children;
  }
}

function PageUnavailable() {
  const { location } = useNavigation();
  const site = useSite();
  const here = `${location.pathname}${location.search}${location.hash}`;
  return (
    <div className="container page page-error">
      <title>{`Page unavailable | ${site.masthead}`}</title>
      <h1 tabIndex={-1}>This page could not be loaded</h1>
      <p>The connection may have dropped, or the site was just updated. The radio keeps playing.</p>
      <p className="page-error__links">
        <PrefetchLink to={here} className="button button--primary">
          Try again
        </PrefetchLink>
        <PrefetchLink to="/">Go to the front page</PrefetchLink>
      </p>
    </div>
  );
}
