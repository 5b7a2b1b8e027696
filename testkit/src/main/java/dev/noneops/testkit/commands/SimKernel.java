package dev.noneops.testkit.commands;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import dev.noneops.ports.files.FileMeta;
import dev.noneops.ports.kernel.KernelTuning;
import dev.noneops.ports.network.HostNetwork;
import dev.noneops.ports.network.Listener;
import dev.noneops.ports.network.NetworkLink;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.gate.PortGate;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.regex.Pattern;

/**
 * The simulated kernel's modules, sysctls and network links, and the two ports over them:
 * {@link #network()} ({@link HostNetwork}) and {@link #tuning()} ({@link KernelTuning}), whose
 * calls pass the host's gate (journaled, faults, crash points; reads are not crash points).
 * Everything here is lost in a crash.
 *
 * <p>A sysctl under {@code net.bridge.} exists only while {@code br_netfilter} is loaded, as on a
 * real kernel, so applying the presets before loading the module fails (of the outcomes a real
 * {@code sysctl --system} may have, the strict one: the other keys are set, and the call fails
 * with ENOENT naming the missing one).
 */
public final class SimKernel {
  private static final List<Path> MODULES_LOAD_DIRS = List.of(
      Path.of("/etc/modules-load.d"),
      Path.of("/run/modules-load.d"),
      Path.of("/usr/lib/modules-load.d"));
  private static final List<Path> SYSCTL_DIRS =
      List.of(Path.of("/etc/sysctl.d"), Path.of("/run/sysctl.d"), Path.of("/usr/lib/sysctl.d"));
  private static final Pattern LINK_NAME = Pattern.compile("[A-Za-z0-9_.@+-]{1,15}");
  private static final Pattern ADDRESS = Pattern.compile("[0-9A-Fa-f:.]+/[0-9]{1,3}");
  private static final Pattern MODULE = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_-]+([./][A-Za-z0-9_@:+-]+)*");

  private final SimFileSystem fs;
  private final PortGate gate;
  private final Object lock;
  private final Set<String> modules = new TreeSet<>();
  private final Set<String> unavailableModules = new HashSet<>();
  private boolean dummyLinks = true;
  private final Map<String, String> sysctls = new TreeMap<>();
  private final Map<String, NetworkLink> links = new TreeMap<>();
  private final List<Listener> listeners = new ArrayList<>();
  private final HostNetwork network = new Network();
  private final KernelTuning tuning = new Tuning();

  public SimKernel(SimFileSystem fs, PortGate gate) {
    this.fs = fs;
    this.gate = gate;
    this.lock = gate.monitor();
    reset();
  }

  /** The network links port. */
  public HostNetwork network() {
    return network;
  }

  /** The modules and sysctls port. */
  public KernelTuning tuning() {
    return tuning;
  }

  public Set<String> loadedModules() {
    synchronized (lock) {
      return Set.copyOf(modules);
    }
  }

  /** Makes loading {@code name} fail with ENOENT (the module does not exist for this kernel). */
  public void makeUnavailable(String module) {
    synchronized (lock) {
      unavailableModules.add(module);
    }
  }

  /** A socket another program of the host binds (a TCP listener, a bound UDP socket). */
  public void listen(Listener listener) {
    synchronized (lock) {
      listeners.add(listener);
    }
  }

  /** Closes a socket {@link #listen} bound. */
  public void unlisten(Listener listener) {
    synchronized (lock) {
      listeners.remove(listener);
    }
  }

  /** Makes this a kernel built without dummy links: adding one fails with EOPNOTSUPP. */
  public void withoutDummyLinks() {
    synchronized (lock) {
      dummyLinks = false;
    }
  }

  /** The sysctl's current value, read without a port call. */
  public Optional<String> sysctl(String key) {
    synchronized (lock) {
      return Optional.ofNullable(sysctls.get(key));
    }
  }

  /** The link's current state, read without a port call. */
  public Optional<NetworkLink> link(String name) {
    synchronized (lock) {
      return Optional.ofNullable(links.get(name));
    }
  }

  public List<NetworkLink> links() {
    synchronized (lock) {
      return List.copyOf(links.values());
    }
  }

  /** A link of {@code kind} ({@code ""} for a physical one) that the host has, down and without addresses. */
  public void seedLink(String name, String kind) {
    synchronized (lock) {
      links.put(name, new NetworkLink(name, kind, false, List.of()));
    }
  }

  /** Removes a link without a port call (as another program on the host would). */
  public void removeLink(String name) {
    synchronized (lock) {
      links.remove(name);
    }
  }

  /** Boot state: only the loopback link, default sysctls, no extra modules. */
  public void reset() {
    synchronized (lock) {
      modules.clear();
      sysctls.clear();
      links.clear();
      listeners.clear();
      sysctls.put("net.ipv4.ip_forward", "0");
      links.put("lo", new NetworkLink("lo", "", true, List.of("127.0.0.1/8")));
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
            for (String line :
                new String(fs.read(dir.resolve(name)), StandardCharsets.UTF_8).split("\n")) {
              String module = line.strip();
              if (!module.isEmpty()
                  && !module.startsWith("#")
                  && !module.startsWith(";")
                  && !unavailableModules.contains(module)) {
                modules.add(module);
              }
            }
          }
        }
        applyPresets();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot boot the simulated kernel", e);
      }
    }
  }

  /** Applies the presets; the errors of the keys that could not be set, one line each. */
  private String applyPresets() throws IOException {
    StringBuilder err = new StringBuilder();
    for (Path file : sysctlFiles()) {
      for (String line : new String(fs.read(file), StandardCharsets.UTF_8).split("\n")) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) {
          continue;
        }
        int eq = l.indexOf('=');
        if (eq <= 0) {
          err.append("sysctl: ")
              .append(file)
              .append(": invalid line '")
              .append(l)
              .append("'\n");
          continue;
        }
        String key = l.substring(0, eq).strip().replace('/', '.');
        boolean ignoreFailure = key.startsWith("-");
        key = ignoreFailure ? key.substring(1) : key;
        if (!apply(key, l.substring(eq + 1).strip()) && !ignoreFailure) {
          err.append("sysctl: cannot stat /proc/sys/")
              .append(key.replace('.', '/'))
              .append(": No such file or directory\n");
        }
      }
    }
    return err.toString();
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

  private static String requireName(String name) {
    if (name == null
        || !LINK_NAME.matcher(name).matches()
        || name.equals(".")
        || name.equals("..")) {
      throw new IllegalArgumentException("not a Linux interface name: '" + name + "'");
    }
    return name;
  }

  private NetworkLink existing(String operation, String name) throws HostIOException {
    NetworkLink l = links.get(name);
    if (l == null) {
      throw new HostIOException(
          Errno.ENODEV, operation, name, "Cannot find device \"" + name + "\"", null);
    }
    return l;
  }

  /** {@link HostNetwork} over the simulated links. */
  private final class Network implements HostNetwork {
    @Override
    public List<Listener> listeners(int port) throws IOException {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("not a port: " + port);
      }
      return gate.call(
          "network",
          "listeners",
          false,
          PortGate.args(port),
          () -> listeners.stream().filter(l -> l.port() == port).toList());
    }

    private static final String PORT = "network";

    @Override
    public Optional<NetworkLink> link(String name) throws IOException {
      requireName(name);
      return gate.call(
          PORT, "link", false, PortGate.args(name), () -> Optional.ofNullable(links.get(name)));
    }

    @Override
    public List<String> linkNames() throws IOException {
      return gate.call(
          PORT, "linkNames", false, PortGate.args(), () -> List.copyOf(links.keySet()));
    }

    @Override
    public void addDummyLink(String name) throws IOException {
      requireName(name);
      gate.call(PORT, "addDummyLink", true, PortGate.args(name), () -> {
        if (links.containsKey(name)) {
          throw new HostIOException(
              Errno.EEXIST, "add dummy link", name, "RTNETLINK answers: File exists", null);
        }
        if (!dummyLinks) {
          throw new HostIOException(
              Errno.EOPNOTSUPP, "add dummy link", name, "Error: Unknown device type.", null);
        }
        links.put(name, new NetworkLink(name, NetworkLink.DUMMY, false, List.of()));
        return null;
      });
    }

    /** One call, as one {@code ip link add <name> up type dummy}. */
    @Override
    public void addUpDummyLink(String name) throws IOException {
      requireName(name);
      gate.call(PORT, "addUpDummyLink", true, PortGate.args(name), () -> {
        if (links.containsKey(name)) {
          throw new HostIOException(
              Errno.EEXIST, "add dummy link", name, "RTNETLINK answers: File exists", null);
        }
        if (!dummyLinks) {
          throw new HostIOException(
              Errno.EOPNOTSUPP, "add dummy link", name, "Error: Unknown device type.", null);
        }
        links.put(name, new NetworkLink(name, NetworkLink.DUMMY, true, List.of()));
        return null;
      });
    }

    @Override
    public void assignAddress(String link, String address) throws IOException {
      requireName(link);
      if (address == null || !ADDRESS.matcher(address).matches()) {
        throw new IllegalArgumentException("not an address in CIDR notation: '" + address + "'");
      }
      gate.call(PORT, "assignAddress", true, PortGate.args(link, address), () -> {
        NetworkLink l = existing("assign " + address + " to", link);
        Set<String> addresses = new TreeSet<>(l.addresses());
        addresses.add(address);
        links.put(link, new NetworkLink(link, l.kind(), l.up(), List.copyOf(addresses)));
        return null;
      });
    }

    @Override
    public void setUp(String link) throws IOException {
      requireName(link);
      gate.call(PORT, "setUp", true, PortGate.args(link), () -> {
        NetworkLink l = existing("set up link", link);
        links.put(link, new NetworkLink(link, l.kind(), true, l.addresses()));
        return null;
      });
    }

    @Override
    public void deleteLink(String name) throws IOException {
      requireName(name);
      gate.call(PORT, "deleteLink", true, PortGate.args(name), () -> {
        existing("delete link", name);
        links.remove(name);
        return null;
      });
    }
  }

  /** {@link KernelTuning} over the simulated modules and sysctls. */
  private final class Tuning implements KernelTuning {
    private static final String PORT = "kernel";

    @Override
    public void loadModule(String name) throws IOException {
      if (name == null || !MODULE.matcher(name).matches()) {
        throw new IllegalArgumentException("not a kernel module name: '" + name + "'");
      }
      gate.call(PORT, "loadModule", true, PortGate.args(name), () -> {
        if (unavailableModules.contains(name)) {
          throw new HostIOException(
              Errno.ENOENT,
              "load kernel module",
              name,
              "modprobe: FATAL: Module " + name + " not found in directory /lib/modules/6.1.0-sim",
              null);
        }
        modules.add(name);
        return null;
      });
    }

    @Override
    public boolean moduleAvailable(String name) throws IOException {
      if (name == null || !MODULE.matcher(name).matches()) {
        throw new IllegalArgumentException("not a kernel module name: '" + name + "'");
      }
      return gate.call(
          PORT,
          "moduleAvailable",
          false,
          PortGate.args(name),
          () -> modules.contains(name) || !unavailableModules.contains(name));
    }

    @Override
    public void applySysctlPresets() throws IOException {
      gate.call(PORT, "applySysctlPresets", true, List.of(), () -> {
        String errors = applyPresets();
        if (!errors.isEmpty()) {
          Errno errno = errors.contains("invalid line") ? Errno.EINVAL : Errno.ENOENT;
          throw new HostIOException(errno, "apply sysctl presets", "sysctl.d", errors, null);
        }
        return null;
      });
    }

    @Override
    public Optional<String> sysctl(String key) throws IOException {
      if (key == null || !KEY.matcher(key).matches()) {
        throw new IllegalArgumentException("not a sysctl key: '" + key + "'");
      }
      return gate.call(
          PORT, "sysctl", false, PortGate.args(key), () -> Optional.ofNullable(sysctls.get(key)));
    }
  }
}
