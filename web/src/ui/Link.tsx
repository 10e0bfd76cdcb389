import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '../navigation.ts';

/** An in-app link: a real <a href> (open in a new tab, keyboard, screen readers) that navigates without a reload. */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...rest} />;
}
