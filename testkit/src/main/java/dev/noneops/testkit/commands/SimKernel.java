package dev.noneops.testkit.commands;

import dev.noneops.ports.files.FileMeta;
import dev.noneops.testkit.fs.SimFileSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The kernel state that the node's commands change, and the simulated programs that change it:
 * {@code modprobe}, {@code sysctl} ({@code --system}, {@code -w}, {@code -n}) and a subset of
 * {@code ip} (links of a kind, addresses, up/down, {@code -j -d link show} naming a link's kind). Everything here is lost in a crash.
 *
 * <p>A sysctl under {@code net.bridge.} exists only while {@code br_netfilter} is loaded, as on a
 * real kernel, so applying sysctls before loading the module fails like it does there.
 */
public final class SimKernel {
  private static final List<Path> MODULES_LOAD_DIRS =
      List.of(Path.of("/etc/modules-load.d"), Path.of("/run/modules-load.d"), Path.of("/usr/lib/modules-load.d"));
  private static final List<Path> SYSCTL_DIRS = List.of(Path.of("/etc/sysctl.d"), Path.of("/run/sysctl.d"), Path.of("/usr/lib/sysctl.d"));

  /** One network link. */
  public record Link(String name, String kind, boolean up, Set<String> addresses) {}

  private final SimFileSystem fs;
  private final Object lock;
  private final Set<String> modules = new TreeSet<>();
  private final Set<String> unavailableModules = new HashSet<>();
  private final Map<String, String> sysctls = new TreeMap<>();
  private final Map<String, Link> links = new TreeMap<>();

  public SimKernel(SimFileSystem fs, Object lock) {
    this.fs = fs;
    this.lock = lock;
    reset();
  }

  /** Registers {@code modprobe}, {@code sysctl} and {@code ip} with {@code runner}. */
  public void registerPrograms(SimCommandRunner runner) {
    runner.register(List.of("modprobe"), c -> modprobe(c.argv()));
    runner.register(List.of("sysctl"), c -> sysctl(c.argv()));
    runner.register(List.of("ip"), c -> ip(c.argv()));
  }

  public Set<String> loadedModules() {
    synchronized (lock) {
      return Set.copyOf(modules);
    }
  }

  /** Makes {@code modprobe name} fail (the module does not exist for this kernel). */
  public void makeUnavailable(String module) {
    synchronized (lock) {
      unavailableModules.add(module);
    }
  }

  public Optional<String> sysctl(String key) {
    synchronized (lock) {
      return Optional.ofNullable(sysctls.get(key));
    }
  }

  public Optional<Link> link(String name) {
    synchronized (lock) {
      return Optional.ofNullable(links.get(name));
    }
  }

  public List<Link> links() {
    synchronized (lock) {
      return List.copyOf(links.values());
    }
  }

  /** Boot state: only the loopback link, default sysctls, no extra modules. */
  public void reset() {
    synchronized (lock) {
      modules.clear();
      sysctls.clear();
      links.clear();
      sysctls.put("net.ipv4.ip_forward", "0");
      links.put("lo", new Link("lo", "loopback", true, Set.of("127.0.0.1/8")));
    }
  }

  /**
   * A boot: {@link #reset()}, then what systemd-modules-load and systemd-sysctl do early at boot —
   * load the modules listed in {@code modules-load.d} and apply the {@code sysctl.d} presets.
   */
  public void boot() {
    synchronized (lock) {
      reset();
      try {
        for (Path dir : MODULES_LOAD_DIRS) {
          Optional<FileMeta> meta = fs.stat(dir);
          if (meta.isEmpty() || !meta.get().isDirectory()) {
            continue;
          }
          for (String name : fs.list(dir)) {
            if (!name.endsWith(".conf")) {
              continue;
            }
            for (String line : new String(fs.read(dir.resolve(name)), StandardCharsets.UTF_8).split("\n")) {
              String module = line.strip();
              if (!module.isEmpty() && !module.startsWith("#") && !module.startsWith(";") && !unavailableModules.contains(module)) {
                modules.add(module);
              }
            }
          }
        }
        sysctl(List.of("sysctl", "--system"));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException("cannot boot the simulated kernel", e);
      }
    }
  }

  private CommandOutcome modprobe(List<String> argv) {
    List<String> names = new ArrayList<>();
    for (String a : argv.subList(1, argv.size())) {
      if (!a.startsWith("-")) {
        names.add(a);
      }
    }
    if (names.isEmpty()) {
      return CommandOutcome.failed(1, "modprobe: ERROR: missing parameters. See -h.\n");
    }
    boolean all = argv.contains("-a") || argv.contains("--all");
    for (String name : all ? names : names.subList(0, 1)) {
      if (unavailableModules.contains(name)) {
        return CommandOutcome.failed(1, "modprobe: FATAL: Module " + name + " not found in directory /lib/modules/6.1.0-sim\n");
      }
      modules.add(name);
    }
    return CommandOutcome.ok();
  }

  private CommandOutcome sysctl(List<String> argv) throws IOException {
    List<String> args = argv.subList(1, argv.size());
    if (args.contains("--system")) {
      StringBuilder out = new StringBuilder();
      StringBuilder err = new StringBuilder();
      for (Path file : sysctlFiles()) {
        out.append("* Applying ").append(file).append(" ...\n");
        for (String line : new String(fs.read(file), StandardCharsets.UTF_8).split("\n")) {
          String l = line.strip();
          if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) {
            continue;
          }
          int eq = l.indexOf('=');
          if (eq <= 0) {
            err.append("sysctl: ").append(file).append(": invalid line '").append(l).append("'\n");
            continue;
          }
          String key = l.substring(0, eq).strip().replace('/', '.');
          boolean ignoreFailure = key.startsWith("-");
          key = ignoreFailure ? key.substring(1) : key;
          if (!apply(key, l.substring(eq + 1).strip()) && !ignoreFailure) {
            err.append("sysctl: cannot stat /proc/sys/").append(key.replace('.', '/')).append(": No such file or directory\n");
          }
        }
      }
      return new CommandOutcome(err.length() == 0 ? 0 : 1, out.toString(), err.toString(), java.time.Duration.ZERO);
    }
    if (args.size() == 2 && args.get(0).equals("-n")) {
      String v = sysctls.get(args.get(1));
      return v == null
          ? CommandOutcome.failed(255, "sysctl: cannot stat /proc/sys/" + args.get(1).replace('.', '/') + ": No such file or directory\n")
          : CommandOutcome.ok(v + "\n");
    }
    if (args.size() >= 2 && args.get(0).equals("-w")) {
      for (String assignment : args.subList(1, args.size())) {
        int eq = assignment.indexOf('=');
        if (eq <= 0 || !apply(assignment.substring(0, eq), assignment.substring(eq + 1))) {
          return CommandOutcome.failed(255, "sysctl: cannot set " + assignment + "\n");
        }
      }
      return CommandOutcome.ok();
    }
    return CommandOutcome.failed(255, "sysctl: the simulation understands --system, -w KEY=VALUE and -n KEY\n");
  }

  private boolean apply(String key, String value) {
    if (key.startsWith("net.bridge.") && !modules.contains("br_netfilter")) {
      return false;
    }
    sysctls.put(key, value);
    return true;
  }

  private List<Path> sysctlFiles() throws IOException {
    TreeMap<String, Path> byName = new TreeMap<>();
    for (Path dir : SYSCTL_DIRS) {
      Optional<FileMeta> meta = fs.stat(dir);
      if (meta.isPresent() && meta.get().isDirectory()) {
        for (String name : fs.list(dir)) {
          if (name.endsWith(".conf")) {
            byName.putIfAbsent(name, dir.resolve(name));
          }
        }
      }
    }
    List<Path> files = new ArrayList<>(byName.values());
    Path main = Path.of("/etc/sysctl.conf");
    if (fs.stat(main).isPresent()) {
      files.add(main);
    }
    return files;
  }

  private CommandOutcome ip(List<String> argv) {
    List<String> a = argv.subList(1, argv.size());
    if (a.size() >= 4 && a.get(0).equals("link") && a.get(1).equals("add") && a.contains("type")) {
      String name = a.get(2);
      if (links.containsKey(name)) {
        return CommandOutcome.failed(2, "RTNETLINK answers: File exists\n");
      }
      links.put(name, new Link(name, a.get(a.indexOf("type") + 1 < a.size() ? a.indexOf("type") + 1 : 3), false, Set.of()));
      return CommandOutcome.ok();
    }
    if (a.size() >= 3 && a.get(0).equals("link") && (a.get(1).equals("del") || a.get(1).equals("delete"))) {
      String name = a.get(2).equals("dev") && a.size() >= 4 ? a.get(3) : a.get(2);
      return links.remove(name) != null ? CommandOutcome.ok() : noDevice(name);
    }
    if (a.size() >= 4 && a.get(0).equals("link") && a.get(1).equals("set")) {
      String name = a.get(2).equals("dev") && a.size() >= 5 ? a.get(3) : a.get(2);
      Link l = links.get(name);
      if (l == null) {
        return noDevice(name);
      }
      boolean up = a.contains("up") || (!a.contains("down") && l.up());
      links.put(name, new Link(name, l.kind(), up, l.addresses()));
      return CommandOutcome.ok();
    }
    if (a.size() >= 6 && Set.copyOf(a.subList(0, 2)).equals(Set.of("-j", "-d")) && a.get(2).equals("link") && a.get(3).equals("show")
        && a.get(4).equals("dev")) {
      Link l = links.get(a.get(5));
      return l == null ? deviceDoesNotExist(a.get(5)) : CommandOutcome.ok(detailsJson(l));
    }
    if (a.size() >= 3 && a.get(0).equals("link") && a.get(1).equals("show")) {
      String name = a.get(2).equals("dev") && a.size() >= 4 ? a.get(3) : a.get(2);
      Link l = links.get(name);
      return l == null ? noDevice(name) : CommandOutcome.ok("1: " + name + ": <" + (l.up() ? "UP" : "DOWN") + "> type " + l.kind() + "\n");
    }
    if (a.size() >= 5 && a.get(0).equals("-o") && (a.get(1).equals("addr") || a.get(1).equals("address")) && a.get(2).equals("show")
        && a.get(3).equals("dev")) {
      Link l = links.get(a.get(4));
      if (l == null) {
        return noDevice(a.get(4));
      }
      StringBuilder out = new StringBuilder();
      for (String address : l.addresses()) {
        out.append("1: ").append(l.name()).append("    inet ").append(address).append(" scope global ").append(l.name())
            .append("\\       valid_lft forever preferred_lft forever\n");
      }
      return CommandOutcome.ok(out.toString());
    }
    if (a.size() >= 5 && (a.get(0).equals("addr") || a.get(0).equals("address"))
        && (a.get(1).equals("add") || a.get(1).equals("replace") || a.get(1).equals("del")) && a.get(3).equals("dev")) {
      String name = a.get(4);
      Link l = links.get(name);
      if (l == null) {
        return noDevice(name);
      }
      Set<String> addresses = new TreeSet<>(l.addresses());
      if (a.get(1).equals("add") && !addresses.add(a.get(2))) {
        return CommandOutcome.failed(2, "RTNETLINK answers: File exists\n");
      }
      if (a.get(1).equals("replace")) {
        addresses.add(a.get(2));
      }
      if (a.get(1).equals("del") && !addresses.remove(a.get(2))) {
        return CommandOutcome.failed(2, "RTNETLINK answers: Cannot assign requested address\n");
      }
      links.put(name, new Link(name, l.kind(), l.up(), Set.copyOf(addresses)));
      return CommandOutcome.ok();
    }
    return CommandOutcome.failed(255, "Command \"" + String.join(" ", a) + "\" is unknown to the simulated ip, try \"ip help\".\n");
  }

  /**
   * {@code ip -j -d link show}'s answer for {@code l}, as iproute2 prints it: one object whose
   * {@code linkinfo.info_kind} is the link's kind; a loopback link has no {@code linkinfo}.
   */
  private static String detailsJson(Link l) {
    String flags = l.up() ? "[\"BROADCAST\",\"NOARP\",\"UP\",\"LOWER_UP\"]" : "[\"BROADCAST\",\"NOARP\"]";
    String linkinfo = l.kind().equals("loopback") ? "" : ",\"linkinfo\":{\"info_kind\":\"" + l.kind() + "\"}";
    return "[{\"ifindex\":1,\"ifname\":\"" + l.name() + "\",\"flags\":" + flags + ",\"operstate\":\"" + (l.up() ? "UNKNOWN" : "DOWN")
        + "\"" + linkinfo + "}]\n";
  }

  private static CommandOutcome deviceDoesNotExist(String name) {
    return CommandOutcome.failed(1, "Device \"" + name + "\" does not exist.\n");
  }

  private static CommandOutcome noDevice(String name) {
    return CommandOutcome.failed(1, "Cannot find device \"" + name + "\"\n");
  }
}
