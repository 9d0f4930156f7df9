import {
  ActionIcon,
  Anchor,
  Button,
  NavLink,
  type ActionIconProps,
  type AnchorProps,
  type ButtonProps,
  type NavLinkProps,
} from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { ComponentPropsWithRef } from 'react';

type ButtonAnchorProps = ButtonProps & Omit<ComponentPropsWithRef<'a'>, keyof ButtonProps>;

function ButtonAnchor(props: ButtonAnchorProps) {
  return <Button component="a" {...props} />;
}

/** Mantine's Button as a router link: typed `to` and `search`, preloading and in-app navigation. */
export const ButtonLink = createLink(ButtonAnchor);

type TextAnchorProps = AnchorProps & Omit<ComponentPropsWithRef<'a'>, keyof AnchorProps>;

function TextAnchor(props: TextAnchorProps) {
  return <Anchor {...props} />;
}

/** Mantine's Anchor as a router link. */
export const AnchorLink = createLink(TextAnchor);

type NavAnchorProps = NavLinkProps & Omit<ComponentPropsWithRef<'a'>, keyof NavLinkProps>;

function NavAnchor(props: NavAnchorProps) {
  return <NavLink component="a" {...props} />;
}

/** Mantine's NavLink as a router link, for the left bar. */
export const NavLinkLink = createLink(NavAnchor);

type ActionIconAnchorProps = ActionIconProps & Omit<ComponentPropsWithRef<'a'>, keyof ActionIconProps>;

function ActionIconAnchor(props: ActionIconAnchorProps) {
  return <ActionIcon component="a" {...props} />;
}

/** Mantine's ActionIcon as a router link; give it an aria-label. */
export const ActionIconLink = createLink(ActionIconAnchor);
