package dev.noneops.benchmarks.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One command measured in an interleaved loop ({@link TimedCommand#measured}): what it is, what
 * it includes, its samples of wall time, CPU time and peak RSS, and the exit codes it returned.
 */
final class Probe {
  private static final Pattern WALL =
      Pattern.compile("^" + TimedCommand.WALL_MARK + "(\\d+)$", Pattern.MULTILINE);
  private static final Pattern RSS =
      Pattern.compile("Maximum resident set size \\(kbytes\\): (\\d+)");
  private static final Pattern USER = Pattern.compile("User time \\(seconds\\): ([\\d.]+)");
  private static final Pattern SYSTEM = Pattern.compile("System time \\(seconds\\): ([\\d.]+)");
  private static final Pattern EXIT = Pattern.compile("Exit status: (\\d+)");
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private final String label;
  private final String includes;
  private final List<String> command;
  private final Samples wall = new Samples("ms");
  private final Samples cpu = new Samples("ms");
  private final Samples rss = new Samples("MB");
  private final Set<Integer> exits = new TreeSet<>();

  Probe(String label, String includes, List<String> command) {
    this.label = label;
    this.includes = includes;
    this.command = List.copyOf(command);
  }

  String label() {
    return label;
  }

  Samples wall() {
    return wall;
  }

  Samples rss() {
    return rss;
  }

  /** Runs the command once and adds its figures. */
  void measureOnce() throws Exception {
    Shell.Result r = Shell.run(command, TIMEOUT);
    String err = r.err();
    Matcher w = WALL.matcher(err);
    Matcher m = RSS.matcher(err);
    Matcher u = USER.matcher(err);
    Matcher s = SYSTEM.matcher(err);
    Matcher e = EXIT.matcher(err);
    if (!w.find() || !m.find() || !u.find() || !s.find() || !e.find()) {
      throw new IllegalStateException(String.join(" ", command)
          + " printed no /usr/bin/time -v report and wall time: " + err.strip());
    }
    wall.add(Long.parseLong(w.group(1)) / 1000.0);
    cpu.add((Double.parseDouble(u.group(1)) + Double.parseDouble(s.group(1))) * 1000);
    rss.add(Long.parseLong(m.group(1)) / 1024.0);
    exits.add(Integer.parseInt(e.group(1)));
  }

  /** {@code exit 0}, or every exit code seen. */
  String exitText() {
    return "exit " + String.join(", ", exits.stream().map(String::valueOf).toList());
  }

  /** The row of the table of every command. */
  String row() {
    return "| " + label + " | " + includes + " | " + wall.summary() + " | " + cpu.medianText()
        + " | " + rss.summary() + " | " + exitText() + " |";
  }
}
