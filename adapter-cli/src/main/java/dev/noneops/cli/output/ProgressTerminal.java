package dev.noneops.cli.output;

import java.util.Optional;

/**
 * Opens live progress on the terminal stderr is, when it is one that can redraw lines in place;
 * empty otherwise (a pipe, a file, {@code TERM=dumb}), and the progress is then plain lines.
 * Opened on the first event only, so commands that report no progress never load the terminal
 * library.
 */
@FunctionalInterface
public interface ProgressTerminal {
  /** Never a terminal: plain lines always (tests, the CDS training run). */
  ProgressTerminal NONE = Optional::empty;

  /** Live progress on stderr's terminal, or empty when stderr is not one. */
  Optional<LiveProgress> open();
}
