/**
 * The error boundary of every element (and of the site's pages, inside the layout): a render error or a chunk that
 * could not be loaded shows a translated panel with Retry instead of leaving the element blank, and is reported
 * once (stores/errors.ts). Retry gives failed chunks a fresh start (lazy.ts) and renders again.
 */
import { Component, useEffect, useRef, type ErrorInfo, type ReactNode } from 'react';
import { ChunkLoadError } from '../../lib/chunks.js';
import { reportElementError } from '../../stores/errors.js';
import { useElement } from './context.js';
import { retryFailedChunks } from './lazy.js';

interface BoundaryProps {
  /** The element's tag, named in the report. */
  tag: string;
  /** A new value starts again after a failure (the site's route: another page is a fresh start). */
  resetKey?: string | undefined;
  /** Puts the panel in a frame that gives it the element's texts, where the boundary sits above the shell. */
  frame?: ((panel: ReactNode) => ReactNode) | undefined;
  /** Called once a render failed (after the report). */
  onError?: (() => void) | undefined;
  /** The panel's Retry takes focus when nothing else has it (default); false for a secondary region of a page. */
  focusRetry?: boolean | undefined;
  children: ReactNode;
}

/** Catches what its children throw while rendering. */
export class ErrorBoundary extends Component<BoundaryProps, { error: unknown; failed: boolean }> {
  override state = { error: undefined as unknown, failed: false };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportElementError(this.props.tag, error, info.componentStack);
    this.props.onError?.();
  }

  override componentDidUpdate(previous: BoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) {
      retryFailedChunks();
      this.setState({ error: undefined, failed: false });
    }
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    const frame = this.props.frame ?? ((panel: ReactNode) => panel);
    return frame(
      <ErrorPanel
        kind={errorKind(this.state.error)}
        focus={this.props.focusRetry !== false}
        onRetry={() => {
          retryFailedChunks();
          this.setState({ error: undefined, failed: false });
        }}
      />,
    );
  }
}

/**
 * What failed: code that did not arrive (`chunk`), code that arrived but failed its integrity check (`chunkRefused`),
 * or a render (`element`). Told by name as well: a chunk's error may come from another bundle's copy of the class.
 */
function errorKind(error: unknown): 'chunk' | 'chunkRefused' | 'element' {
  if (!(error instanceof ChunkLoadError) && (error as Error | undefined)?.name !== 'ChunkLoadError') return 'element';
  return (error as ChunkLoadError).refused ? 'chunkRefused' : 'chunk';
}

/** What the viewer sees: what went wrong, in their language, and Retry (focused, so a keyboard user is there). */
function ErrorPanel(props: {
  kind: 'chunk' | 'chunkRefused' | 'element';
  focus: boolean;
  onRetry: () => void;
}): ReactNode {
  const { t } = useElement();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!props.focus) return;
    // Only when focus was inside what just failed (or nowhere): never pull focus from the host page (a shadow root's
    // activeElement is null while focus is out on the page, hence the document's too).
    const root = button.current?.getRootNode() as ShadowRoot | Document | undefined;
    const active = root && 'activeElement' in root ? root.activeElement : null;
    const outer = document.activeElement;
    if ((!active || active === document.body) && (!outer || outer === document.body))
      button.current?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the panel appears
  }, []);
  return (
    <div className="panel error" role="alert" part="error">
      <p>{t(`errors.${props.kind}`)}</p>
      <button ref={button} type="button" className="btn" part="button retry" onClick={props.onRetry}>
        {t('common.retry')}
      </button>
    </div>
  );
}
