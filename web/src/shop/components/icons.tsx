// The shop's icons: the shared set at the shop's 20 px, plus its own on the same base.
import { Icon, type IconProps, ChevronLeftIcon as SharedChevronLeft, ChevronRightIcon as SharedChevronRight, PhoneIcon as SharedPhone, PinIcon as SharedPin } from '../../components/icons';

export const CartIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <circle cx="9" cy="20" r="1.5" />
    <circle cx="18" cy="20" r="1.5" />
    <path d="M2 3h3l2.7 12.4a2 2 0 0 0 2 1.6h8.1a2 2 0 0 0 2-1.5L22 7H6" />
  </Icon>
);
export const ChatIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
  </Icon>
);
export const CloseIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Icon>
);
export const SearchIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Icon>
);
export const PinIcon = (p: IconProps) => <SharedPin size={20} {...p} />;
export const PhoneIcon = (p: IconProps) => <SharedPhone size={20} {...p} />;
export const ClockIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);
export const ChevronLeftIcon = (p: IconProps) => <SharedChevronLeft size={20} {...p} />;
export const ChevronRightIcon = (p: IconProps) => <SharedChevronRight size={20} {...p} />;
export const HelpIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M9.5 9a2.5 2.5 0 0 1 4.9.8c0 1.7-2.4 2.2-2.4 3.7" />
    <path d="M12 17h.01" />
  </Icon>
);
export const ImageIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="2" />
    <path d="m21 17-5-5-9 8" />
  </Icon>
);
export const TrashIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6" />
  </Icon>
);

/** The WhatsApp glyph, filled. */
export const WhatsAppIcon = ({ size = 20 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor">
    <path d="M12 2a10 10 0 0 0-8.6 15.1L2 22l5-1.3A10 10 0 1 0 12 2zm0 18.2a8.2 8.2 0 0 1-4.2-1.2l-.3-.2-3 .8.8-2.9-.2-.3A8.2 8.2 0 1 1 12 20.2zm4.5-6.1c-.2-.1-1.5-.7-1.7-.8s-.4-.1-.6.1-.7.8-.8 1-.3.2-.5.1a6.7 6.7 0 0 1-3.3-2.9c-.3-.4.3-.4.7-1.3.1-.2 0-.3 0-.4l-.8-1.8c-.2-.5-.4-.4-.6-.4h-.5a1 1 0 0 0-.7.3 3 3 0 0 0-.9 2.2 5.2 5.2 0 0 0 1.1 2.7 11.8 11.8 0 0 0 4.5 4c1.7.7 2.3.8 3.2.6a2.7 2.7 0 0 0 1.8-1.3 2.2 2.2 0 0 0 .2-1.3c-.1-.1-.3-.2-.5-.3z" />
  </svg>
);

export const MailIcon = (p: IconProps) => (
  <Icon size={20} {...p}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="m3 7 9 6 9-6" />
  </Icon>
);
