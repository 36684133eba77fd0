// The three tabs' texts of the accessibility help dialog (spec/studio.md section 2: Keyboard,
// Screen Reader, Visual). The keyboard list is the spec's; the other two describe what this
// studio really does (web/a11y/announcer.ts, web/a11y/reduced-motion.ts, the CSS breakpoints).

import { Link } from "react-router-dom";
import { closeHelp } from "./help-store";

interface KeyRow {
  keys: string[][];
  action: string;
}

/** Each row's key combinations: alternatives (outer) of keys pressed together (inner). */
export const KEYBOARD_ROWS: readonly KeyRow[] = [
  { keys: [["Space"]], action: "Play or stop the sound (when focus is not on a button or field)" },
  { keys: [["Ctrl", "P"]], action: "Open plans and pricing" },
  { keys: [["Ctrl", "F"]], action: "Focus the frequency input (channel 1)" },
  { keys: [["Shift", "?"]], action: "Show this help" },
  { keys: [["Escape"]], action: "Close dialogs and the pricing screen; close the tour when focus is in it" },
  { keys: [["Tab"], ["Shift", "Tab"]], action: "Move to the next or previous control" },
  { keys: [["Enter"], ["Space"]], action: "Activate the focused button, switch or link" },
  { keys: [["↑ Up"], ["↓ Down"]], action: "Raise or lower a focused frequency by 1 Hz; with Shift by 10 Hz" },
  { keys: [["← Left"], ["→ Right"], ["Home"], ["End"]], action: "Move between tabs, like the ones in this dialog" },
];

function Keys({ keys }: { keys: string[][] }) {
  return (
    <>
      {keys.map((combo, i) => (
        <span key={i} className="key-combo">
          {i > 0 && <span className="key-or"> or </span>}
          {combo.map((k, j) => (
            <span key={k}>
              {j > 0 && "+"}
              <kbd>{k}</kbd>
            </span>
          ))}
        </span>
      ))}
    </>
  );
}

export function KeyboardHelp() {
  return (
    <>
      <p>Everything in the studio works from the keyboard.</p>
      <table className="help-keys">
        <caption className="sr-only">Keyboard shortcuts</caption>
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">What they do</th>
          </tr>
        </thead>
        <tbody>
          {KEYBOARD_ROWS.map((row) => (
            <tr key={row.action}>
              <td><Keys keys={row.keys} /></td>
              <td>{row.action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        On a Mac, <kbd>⌘</kbd> works in place of <kbd>Ctrl</kbd>. Shortcuts are ignored while you type in a
        text field, so typing never starts sound or opens anything; <kbd>Escape</kbd> still works there.
      </p>
      <p>
        Tone Studio is built to conform to WCAG 2.1 Level AA. If anything stands in your way, tell us
        through the <Link to="/support" onClick={closeHelp}>Support page</Link>.
      </p>
    </>
  );
}

export function ScreenReaderHelp() {
  return (
    <>
      <h3>Finding your way</h3>
      <ul>
        <li>The first link on every page, <q>Skip to content</q>, jumps past the header to the main area.</li>
        <li>
          Pages use the usual landmarks (header, navigation, main, footer) and a heading for every part of
          the studio: each channel card, the displays, each effect card, playback and the Quality Test. Your
          screen reader&apos;s heading list is the quickest way around.
        </li>
        <li>
          The getting-started tour is an ordinary region near the top of the studio, not a trap: read it like
          any text, then use Previous, Next, Show me (moves focus to the control the step is about) and
          Close.
        </li>
      </ul>
      <h3>Controls</h3>
      <ul>
        <li>
          Every control is named after its channel or effect, for example <q>Channel 2 frequency (Hz)</q>,{" "}
          <q>Channel 2 on/off</q> (a switch) and <q>Channel 2 waveform</q>.
        </li>
        <li>
          Frequency boxes are spin buttons: type a value from 0 to 20000, or use <kbd>↑ Up</kbd> and <kbd>↓ Down</kbd>{" "}
          (1 Hz; 10 Hz with <kbd>Shift</kbd>). Sliders and effect values announce their number and unit.
        </li>
        <li>Controls your plan does not include are announced as unavailable, next to a <q>Pro Only</q> button that opens the plans.</li>
      </ul>
      <h3>What is announced</h3>
      <ul>
        <li><q>Playback started</q> and <q>Playback stopped</q>, also when the duration runs out.</li>
        <li><q>Exporting WAV</q>, then <q>Export complete</q> with the file name, or <q>Export cancelled</q>; the progress bar reads its percentage when you move to it.</li>
        <li>In the Quality Test: rendering, which version plays, and when it stops.</li>
        <li>Confirmations and errors, such as <q>Preset shared! Link copied to clipboard</q>, as they appear.</li>
      </ul>
      <p>
        Announcements are polite: they wait until your screen reader has finished speaking, and they are
        cleared after a second, so nothing stale is read out later.
      </p>
      <h3>Displays and shortcuts</h3>
      <ul>
        <li>The waveform and spectrogram are pictures of what you hear; they show nothing you cannot hear.</li>
        <li>
          In browse or virtual mode some screen readers keep single keys such as <kbd>Space</kbd> for
          themselves. Switch to focus (forms) mode to use the shortcuts, or use the controls they stand for:
          every shortcut has a button or a field you can reach with <kbd>Tab</kbd>.
        </li>
      </ul>
    </>
  );
}

export function VisualHelp() {
  return (
    <>
      <h3>Contrast and colour</h3>
      <ul>
        <li>Text has a contrast of at least 4.5:1 with its background (3:1 for large text); controls, their borders and the focus outline at least 3:1.</li>
        <li>The control with keyboard focus always has a thick yellow outline.</li>
        <li>Colour is never the only signal: switches say On or Off, the play button says what it will do, and locked items read <q>Pro Only</q>.</li>
      </ul>
      <h3>Reduced motion</h3>
      <p>When your system asks for reduced motion, the studio follows it:</p>
      <ul>
        <li>the waveform and spectrogram redraw once a second instead of animating;</li>
        <li>the hint bar&apos;s dismiss button turns solid instead of pulsing, and the tutorial&apos;s highlight stays still;</li>
        <li>spinners stand still, and <q>Show me</q> jumps to a control instead of scrolling smoothly.</li>
      </ul>
      <p>
        To turn it on: Windows, Settings › Accessibility › Visual effects › Animation effects (off); macOS,
        System Settings › Accessibility › Display › Reduce motion; iPhone and iPad, Settings ›
        Accessibility › Motion › Reduce Motion; Android, Settings › Accessibility › Remove animations.
      </p>
      <p>
        Hints change every 5 seconds. They pause while the pointer or keyboard focus is on them, and{" "}
        <q>Dismiss hints</q> hides them for the rest of your visit.
      </p>
      <h3>Zoom and text size</h3>
      <ul>
        <li>
          Zoom with <kbd>Ctrl</kbd>+<kbd>+</kbd> and <kbd>Ctrl</kbd>+<kbd>-</kbd> (<kbd>⌘</kbd> on a Mac);{" "}
          <kbd>Ctrl</kbd>+<kbd>0</kbd> resets.
        </li>
        <li>
          The layout reflows: at 400% zoom, or on a screen 320 pixels wide, everything fits in one or two
          columns and nothing scrolls sideways. Text can be enlarged to 200% without losing content.
        </li>
      </ul>
    </>
  );
}
