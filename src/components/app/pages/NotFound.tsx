/** /404 ("Looks like we lose this page"). */
import type { ReactNode } from 'react';
import { useElement } from '../../ui/context.js';
import { PageHeading, useSite } from '../site.js';

/** The not-found page, with a link home. */
export default function NotFoundPage(): ReactNode {
  return <Message title="site:titles.notFound" text="site:notFound.text" home="site:notFound.home" part="not-found" />;
}

function Message(props: { title: string; text: string; home: string; part: string }): ReactNode {
  const { t } = useElement();
  const { href } = useSite();
  return (
    <div className="panel message-page" part={props.part}>
      <PageHeading title={t(props.title)}>{t(props.text)}</PageHeading>
      <a className="btn" part="button" href={href('/')}>
        {t(props.home)}
      </a>
    </div>
  );
}
