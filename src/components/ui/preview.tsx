/**
 * A card's preview loop (event and library cards), shown while the card is pointed at or focused: muted (so it
 * may play by itself), looping, inline on phones, hidden from screen readers, with no download or picture-in-picture
 * and no menu of its own. Loaded only when shown; gone (and stopped) when the card is left. Cards show none to a
 * viewer who prefers less motion (lib/motion.ts `prefersReducedMotion`, checked by the cards): the picture stays.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export function Preview(props: { src: string; alt?: string | undefined; part: string }): ReactNode {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    // React sets `muted` as a property after the element exists; autoplay needs it before play() is asked.
    v.muted = true;
    // A source changed in place is not loaded by itself.
    v.load();
    v.play()?.catch(() => undefined);
  }, [props.src]);
  return (
    <video
      ref={video}
      className="preview"
      part={props.part}
      muted
      loop
      playsInline
      autoPlay
      preload="auto"
      aria-hidden="true"
      tabIndex={-1}
      controlsList="nodownload noremoteplayback"
      disablePictureInPicture
      onContextMenu={(e) => e.preventDefault()}
    >
      <source src={props.src} />
      {props.alt ? <source src={props.alt} /> : null}
    </video>
  );
}
