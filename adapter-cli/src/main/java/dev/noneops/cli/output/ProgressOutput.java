package dev.noneops.cli.output;

import dev.noneops.ports.events.NodeEvent;
import dev.noneops.ports.events.NodeEvents;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.Optional;

/**
 * The node's events on stderr in the form that suits where stderr goes, chosen at the first
 * event: NDJSON with {@code --json}; live bars and one line per phase when stderr is a terminal
 * ({@link ProgressTerminal}); else the plain lines of {@link ProgressPrinter}.
 */
public final class ProgressOutput implements LiveProgress {
  private final PrintWriter err;
  private final boolean json;
  private final ProgressTerminal terminal;
  private NodeEvents chosen;
  private Optional<LiveProgress> live = Optional.empty();

  public ProgressOutput(PrintWriter err, boolean json, ProgressTerminal terminal) {
    this.err = Objects.requireNonNull(err, "err");
    this.json = json;
    this.terminal = Objects.requireNonNull(terminal, "terminal");
  }

  @Override
  public synchronized void onEvent(NodeEvent event) {
    if (chosen == null) {
      chosen = choose();
    }
    chosen.onEvent(event);
  }

  private NodeEvents choose() {
    if (!json) {
      try {
        live = terminal.open();
      } catch (RuntimeException e) {
        live = Optional.empty(); // no terminal to draw on: plain lines
      }
      if (live.isPresent()) {
        err.flush();
        return live.get();
      }
    }
    return new ProgressPrinter(err, json);
  }

  @Override
  public synchronized void close() {
    if (live.isPresent()) {
      live.get().close();
      live = Optional.empty();
      chosen =
          new ProgressPrinter(err, json); // a late event: a plain line, the terminal is given back
    }
  }
}
