package dev.noneops.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * What a node on a sandboxed systemd could change on the host: the sandbox has a network of its
 * own, whose links and network sysctls are not the host's, but it shares the host's kernel, so
 * the host's network links, the network sysctls kubelet needs and the loaded kernel modules are
 * read before the demo, compared after it, and put back where they differ (a check that the
 * sandbox kept them to itself), so the host is left as it was.
 */
record HostState(Set<String> links, Map<String, String> sysctls, Set<String> modules) {
  static final List<String> SYSCTLS = List.of(
      "net/ipv4/ip_forward",
      "net/bridge/bridge-nf-call-iptables",
      "net/bridge/bridge-nf-call-ip6tables");
  static final List<String> MODULES_THE_NODE_LOADS = List.of("br_netfilter", "overlay");

  static HostState read() throws IOException {
    Set<String> links = new TreeSet<>();
    try (var s = Files.list(Path.of("/sys/class/net"))) {
      s.forEach(p -> links.add(String.valueOf(p.getFileName())));
    }
    Map<String, String> sysctls = new TreeMap<>();
    for (String name : SYSCTLS) {
      Path p = Path.of("/proc/sys").resolve(name);
      if (Files.exists(p)) {
        sysctls.put(name, Files.readString(p, StandardCharsets.UTF_8).strip());
      }
    }
    Set<String> modules = new TreeSet<>();
    Path procModules = Path.of("/proc/modules");
    if (Files.isReadable(procModules)) {
      for (String line : Files.readAllLines(procModules, StandardCharsets.UTF_8)) {
        modules.add(line.split(" ", 2)[0]);
      }
    }
    return new HostState(links, sysctls, modules);
  }

  /**
   * Puts back what differs from {@code before}: removes links that are new and dummy, writes back
   * sysctls, unloads modules the node loaded that were not loaded before. Returns what it did.
   *
   * @throws IllegalStateException naming what could not be put back
   */
  String restoreTo(HostState before, PrintWriter log) throws IOException, InterruptedException {
    List<String> done = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    for (String link : links) {
      if (!before.links().contains(link)) {
        if (run("ip", "link", "delete", "dev", link) == 0) {
          done.add("removed link " + link);
        } else {
          failed.add("link " + link);
        }
      }
    }
    for (Map.Entry<String, String> e : before.sysctls().entrySet()) {
      Path p = Path.of("/proc/sys").resolve(e.getKey());
      if (Files.exists(p)
          && !Files.readString(p, StandardCharsets.UTF_8).strip().equals(e.getValue())) {
        Files.writeString(p, e.getValue() + "\n", StandardCharsets.UTF_8);
        done.add(e.getKey().replace('/', '.') + "=" + e.getValue());
      }
    }
    for (String module : MODULES_THE_NODE_LOADS) {
      if (modules.contains(module) && !before.modules().contains(module)) {
        if (run("modprobe", "-r", module) == 0) {
          done.add("unloaded " + module);
        } else {
          failed.add("module " + module + " (still in use)");
        }
      }
    }
    HostState after = read();
    boolean same = after.links().equals(before.links())
        && after.sysctls().equals(before.sysctls())
        && before
            .modules()
            .containsAll(after.modules().stream()
                .filter(MODULES_THE_NODE_LOADS::contains)
                .toList());
    done.forEach(d -> log.println("  restored: " + d));
    log.flush();
    if (!failed.isEmpty() || !same) {
      throw new IllegalStateException("could not put back " + String.join(", ", failed)
          + (same ? "" : " (host state differs: " + after + ")"));
    }
    return done.isEmpty()
        ? "links, network sysctls and kernel modules as before; nothing to put back"
        : "links, network sysctls and kernel modules as before after putting back: "
            + String.join(", ", done);
  }

  static int run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }
}
