package dev.noneops.testkit.system;

import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandResult;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.testkit.sandbox.SystemdSandbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * For kernels built without dummy links ({@code CONFIG_DUMMY} unset: {@code ip link add ... type
 * dummy} fails with "Unknown device type"), runs the {@code ip link add <name> type dummy} of the
 * network port ({@code IpHostNetwork} over this runner) as {@code type ifb} instead: another link that only carries addresses, so LocalDNS can still
 * listen on its link-local address; and {@code ip -j -d addr show} answers with an {@code ifb}
 * link's kind given as {@code dummy}, as the node expects of the links it made. Every other
 * command, and every command on a kernel that has dummy links, runs unchanged. Debian's kernels
 * have dummy links; this exists for build machines whose kernel does not.
 */
public final class DummyLinkStandIn implements CommandRunner {
  /** The link type created in place of {@code dummy}. */
  public static final String STAND_IN_TYPE = "ifb";

  /** Where {@link #installWhereNeeded} puts {@link #shellWrapper} inside a sandbox. */
  public static final String WRAPPER_IN_SANDBOX = "/usr/local/sbin/ip";

  private final CommandRunner runner;

  private DummyLinkStandIn(CommandRunner runner) {
    this.runner = Objects.requireNonNull(runner, "runner");
  }

  /** {@code runner} itself when the kernel creates dummy links, else it with the stand-in. */
  public static CommandRunner ifNeeded(CommandRunner runner) throws IOException {
    return kernelHasDummyLinks(runner) ? runner : new DummyLinkStandIn(runner);
  }

  /** Whether {@code ip link add <probe> type dummy} works (the probe link is deleted again). */
  public static boolean kernelHasDummyLinks(CommandRunner runner) throws IOException {
    String probe = "noneopsprobe0";
    CommandResult added =
        runner.run(Command.of(Duration.ofSeconds(10), "ip", "link", "add", probe, "type", "dummy"));
    if (added.succeeded()) {
      CommandResult deleted =
          runner.run(Command.of(Duration.ofSeconds(10), "ip", "link", "delete", "dev", probe));
      if (!deleted.succeeded()) {
        throw new IOException(
            "cannot delete the probe link " + probe + ": " + deleted.stderr().strip());
      }
      return true;
    }
    if (added.stderr().contains("Unknown device type")) {
      return false;
    }
    throw new IOException("cannot tell whether the kernel has dummy links: ip link add exited "
        + added.exitCode() + ": " + added.stderr().strip());
  }

  @Override
  public CommandResult run(Command command) throws IOException {
    List<String> argv = command.argv();
    int type = argv.indexOf("type");
    boolean addsDummy = argv.size() >= 4
        && argv.get(0).endsWith("ip")
        && argv.get(1).equals("link")
        && argv.get(2).equals("add")
        && type > 0
        && type + 1 < argv.size()
        && argv.get(type + 1).equals("dummy");
    if (addsDummy) {
      List<String> replaced = new ArrayList<>(argv);
      replaced.set(type + 1, STAND_IN_TYPE);
      return runner.run(
          new Command(replaced, command.env(), command.timeout(), command.maxOutputBytes()));
    }
    CommandResult result = runner.run(command);
    boolean showsDetails = argv.size() == 7
        && argv.get(0).endsWith("ip")
        && argv.subList(1, 6).equals(List.of("-j", "-d", "addr", "show", "dev"));
    if (showsDetails && result.succeeded()) {
      // on a kernel without dummy links, an ifb link stands in for one (whichever process made it)
      return new CommandResult(
          result.exitCode(),
          result
              .stdout()
              .replace("\"info_kind\":\"" + STAND_IN_TYPE + "\"", "\"info_kind\":\"dummy\""),
          result.stderr(),
          result.timedOut());
    }
    return result;
  }

  /**
   * Where {@code sandbox}'s kernel has no dummy links (probed inside it, in its network namespace),
   * writes {@link #shellWrapper} as {@value #WRAPPER_IN_SANDBOX} inside it, first on the {@code
   * PATH} of a CLI run there and of its systemd's units alike (the recovery gate and the agent's
   * daemon run {@code ip} too); on a sandbox's disk it stays for the boots that follow.
   *
   * @return whether the wrapper was written (false: the kernel has dummy links)
   */
  public static boolean installWhereNeeded(SystemdSandbox sandbox) throws IOException {
    var probe = sandbox.exec("ip", "link", "add", "noneopsprobe0", "type", "dummy");
    if (probe.exitCode() == 0) {
      sandbox.exec("ip", "link", "delete", "dev", "noneopsprobe0").orThrow();
      return false;
    }
    String realIp = Files.isExecutable(Path.of("/usr/sbin/ip")) ? "/usr/sbin/ip" : "/sbin/ip";
    Path wrapper = sandbox.path(WRAPPER_IN_SANDBOX);
    Files.createDirectories(Objects.requireNonNull(wrapper.getParent(), "/usr/local/sbin"));
    Files.writeString(wrapper, shellWrapper(realIp), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    return true;
  }

  /**
   * The same stand-in as a shell script for processes that run {@code ip} themselves (a CLI or a
   * unit inside a sandbox, placed first on their {@code PATH}, e.g. at {@code /usr/local/sbin/ip}):
   * {@code dummy} becomes {@code ifb} in its arguments, and JSON link lists call an {@code ifb}
   * link a dummy; {@code realIp} is the real {@code ip} it runs.
   */
  public static String shellWrapper(String realIp) {
    return """
        #!/bin/sh
        # noneops: this kernel has no dummy link type; an ifb link, which also only carries
        # addresses, stands in where a dummy is asked for, and JSON link lists call it a dummy.
        n=$#
        json=no
        for a in "$@"; do
          if [ "$a" = dummy ]; then a=ifb; fi
          if [ "$a" = -j ] || [ "$a" = -json ]; then json=yes; fi
          set -- "$@" "$a"
        done
        shift $n
        if [ "$json" = no ]; then
          exec %1$s "$@"
        fi
        out=$(%1$s "$@")
        rc=$?
        printf '%%s\n' "$out" | sed 's/"info_kind":"ifb"/"info_kind":"dummy"/g'
        exit $rc
        """.formatted(realIp);
  }
}
