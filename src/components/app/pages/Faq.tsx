/**
 * The FAQ page (`GET faq`): an accordion in the WAI-ARIA pattern. Each question is a button inside a heading,
 * with aria-expanded and aria-controls; each answer (sanitized HTML) is a region labelled by its question. All
 * start collapsed; buttons toggle with Enter and Space as buttons do.
 */
import { useStore } from '../../ui/use-store.js';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { Faq } from '../../../api/content-schemas.js';
import { $faq, loadFaq } from '../../../stores/site/content.js';
import { NamespaceReady } from '../../ui/namespace.js';
import { LoadingPanel } from '../../ui/panels.js';
import { useElement } from '../../ui/shell.js';
import { useSite } from '../site.js';
import { ErrorPanel, PageFrame } from './Content.js';
import { sanitizeHtml, useSanitizedHtml } from './html.js';

function Item(props: { item: Faq; open: boolean; toggle(): void; idBase: string }): ReactNode {
  const site = useSite();
  const { item, open } = props;
  const answer = useMemo(() => sanitizeHtml(item.answer, { href: site.href }), [item.answer, site]);
  const questionId = `${props.idBase}-q${item.id}`;
  const answerId = `${props.idBase}-a${item.id}`;
  const answerRef = useSanitizedHtml<HTMLDivElement>(answer);
  return (
    <div className="faq-item" part="faq-item">
      <h2>
        <button
          type="button"
          id={questionId}
          className="faq-question"
          aria-expanded={open}
          aria-controls={answerId}
          onClick={props.toggle}
        >
          {item.question}
        </button>
      </h2>
      <div
        id={answerId}
        role="region"
        aria-labelledby={questionId}
        className="faq-answer"
        hidden={!open}
        // Holds the sanitized answer only (see html.ts).
        ref={answerRef}
      />
    </div>
  );
}

function FaqBody(): ReactNode {
  const { t } = useElement();
  const state = useStore($faq());
  const idBase = useId().replace(/:/g, '');
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());

  useEffect(() => void loadFaq(), []);

  const toggle = (id: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  let body: ReactNode;
  if (state.status === 'error') {
    body = <ErrorPanel title={t('site:faq.error')} error={state.error} retry={() => void loadFaq()} />;
  } else if (state.status === 'ready') {
    const items = state.value ?? [];
    body = items.length ? (
      <div className="faq" part="faq">
        {items.map((item) => (
          <Item key={item.id} item={item} open={open.has(item.id)} toggle={() => toggle(item.id)} idBase={idBase} />
        ))}
      </div>
    ) : (
      <p part="empty">{t('site:faq.empty')}</p>
    );
  } else body = <LoadingPanel text={t('site:faq.loading')} />;

  return <PageFrame title={t('site:titles.faq')}>{body}</PageFrame>;
}

/** The FAQ page. */
export default function FaqPage(): ReactNode {
  return (
    <NamespaceReady ns="site">
      <FaqBody />
    </NamespaceReady>
  );
}
