/** The compositor's own renditions, as SGR parameters (256-colour, so every terminal fux targets shows them). */
export const theme = {
  bar: '38;5;252;48;5;236',
  workspace: '1;38;5;16;48;5;114',
  activeTab: '1;38;5;16;48;5;75',
  mode: '1;38;5;16;48;5;220',
  focusedPane: '1;38;5;231;48;5;236',
  unseen: '1;38;5;220;48;5;236',
  glyph: { working: '33', blocked: '31', idle: '32' },
  border: '38;5;240',
  /** Green, as tmux's default pane-active-border-style. */
  activeBorder: '32',
  copyLabel: '38;5;16;48;5;220',
} as const;

/** unblessed style objects for the widgets (popup frame, overlays). */
export const widgetTheme = {
  popupBorder: { fg: 'green' },
  overlayBorder: { fg: 'cyan' },
  selected: { fg: 'black', bg: 'cyan', bold: true },
  message: { fg: 'black', bg: 'yellow' },
} as const;
