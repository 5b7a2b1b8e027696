package dev.noneops.cli;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.layout.NodeConstants;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a man page has beyond picocli's generated sections ({@link ManPageSources}): headings
 * without the help's trailing colons, EXIT STATUS (the whole table on {@code noneops(1)}, a
 * pointer to it on a command's page), FILES (the paths the node uses, from core's layout), the
 * ENVIRONMENT the CLI reads, and SEE ALSO.
 */
final class ManPageSections {
  private static final String EXIT_STATUS_TAG = "picocli-generated-man-section-exit-status";
  private static final String END_OF_PAGE = "// end::picocli-generated-full-manpage[]";
  private static final Pattern HEADING_WITH_COLON = Pattern.compile("(?m)^==\\s+(.*?):\\s*$");

  private ManPageSections() {}

  /**
   * The AsciiDoc {@code page} of {@code command} ("noneops" for the root) with the sections
   * added; {@code commands} are the names of the root's visible subcommands.
   */
  static String complete(String page, String command, List<String> commands) {
    boolean root = command.equals("noneops");
    String withoutColons = HEADING_WITH_COLON
        .matcher(page)
        .replaceAll(m -> "== " + Matcher.quoteReplacement(m.group(1)));
    int start = withoutColons.indexOf("// tag::" + EXIT_STATUS_TAG + "[]");
    String end = "// end::" + EXIT_STATUS_TAG + "[]";
    int stop = withoutColons.indexOf(end);
    if (start < 0 || stop < 0 || !withoutColons.contains(END_OF_PAGE)) {
      throw new IllegalStateException(
          "picocli's man page of " + command + " has no exit-status section to replace");
    }
    String sections = exitStatus(root) + files() + environment();
    return withoutColons.substring(0, start)
        + sections
        + withoutColons
            .substring(stop + end.length())
            .replace(END_OF_PAGE, seeAlso(root, commands) + END_OF_PAGE);
  }

  private static String exitStatus(boolean root) {
    StringBuilder out = new StringBuilder("== Exit status\n\n");
    if (root) {
      for (ExitCode code : ExitCode.values()) {
        out.append('*')
            .append(code.code())
            .append("*::\n  ")
            .append(code.meaning())
            .append("\n\n");
      }
    } else {
      out.append("0 on success. Every other exit status, and what it means, is in the table of"
          + " *noneops*(1) (and of *noneops --help*), which every command shares.\n\n");
    }
    return out.toString();
  }

  private static String files() {
    HostPaths paths = HostPaths.realHost();
    Layout layout = Layout.defaultLayout();
    StringBuilder out = new StringBuilder("== Files\n\n");
    item(
        out,
        Path.of(NodeConstants.DEFAULT_CONFIG_PATH),
        "The agent configuration (JSON) a command reads unless *--config* names another.");
    item(out, paths.appliedConfig(), "The configuration the node last applied.");
    item(
        out,
        paths.ownershipRecord(),
        "The record of the shared files the node wrote, which *reset* removes (putting back"
            + " what was there before).");
    item(out, paths.agentState(), "The agent daemon's state.");
    item(
        out,
        layout.root(),
        "The layout: each installed version in a directory of its own, the link *current* to the"
            + " active one, the node lock and the upgrade journal.");
    item(out, layout.current(), "The active version.");
    item(out, layout.lock(), "The node lock, held by a command that changes the node.");
    item(out, paths.agentHome(), "The agent's builds, which a bootstrap installs.");
    item(out, paths.agentCommand(), "The command a bootstrap installs on the PATH.");
    item(out, paths.agentSocket(), "Where the agent's daemon answers *status*.");
    for (String unit : List.of(
        HostPaths.LOCALDNS_UNIT,
        HostPaths.CONTAINERD_UNIT,
        HostPaths.KUBELET_UNIT,
        HostPaths.AGENT_UNIT,
        HostPaths.RECOVERY_GATE_UNIT)) {
      item(out, paths.unit(unit), "A unit the node writes (its first line says so).");
    }
    item(out, paths.kubeletDir(), "kubelet's data, which *reset* removes.");
    item(out, paths.containerdStateDir(), "containerd's data, which *reset* removes.");
    item(out, paths.agentManDir(), "These pages, as a bootstrap installs them.");
    return out.toString();
  }

  private static void item(StringBuilder out, Path path, String what) {
    out.append('_').append(path).append("_::\n  ").append(what).append("\n\n");
  }

  private static String environment() {
    return "== Environment\n\n"
        + "*TERM*::\n  Live progress is drawn on stderr only when it is a terminal whose type"
        + " (not *dumb*) can redraw lines; otherwise progress is plain lines.\n\n"
        + "*DBUS_SYSTEM_BUS_ADDRESS*::\n  The system bus systemd is reached on (default:"
        + " *unix:path=/run/dbus/system_bus_socket*).\n\n"
        + "*DBUS_MACHINE_ID_LOCATION*::\n  Where the D-Bus client reads the machine id (default:"
        + " _/etc/machine-id_).\n\n"
        + "*NOTIFY_SOCKET*, *WATCHDOG_USEC*, *WATCHDOG_PID*::\n  Set by systemd for *noneops"
        + " daemon*: where it reports readiness and how often it pets the watchdog.\n\n";
  }

  private static String seeAlso(boolean root, List<String> commands) {
    StringBuilder out = new StringBuilder("== See also\n\n");
    if (root) {
      for (String command : commands) {
        out.append("*noneops-").append(command).append("*(1), ");
      }
    } else {
      out.append("*noneops*(1), ");
    }
    out.append("*systemctl*(1), *journalctl*(1), *kubelet* (*kubelet --help*, and its reference"
        + " on kubernetes.io)\n\n");
    return out.toString();
  }
}
