package dev.noneops.hostfs.host;

import dev.noneops.hostfs.internal.io.IoErrors;
import dev.noneops.ports.host.HostFacts;
import dev.noneops.ports.host.HostInfo;
import dev.noneops.ports.host.ResolvConf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads {@link HostInfo} from a Linux host: the JVM's architecture, {@code /proc/sys/kernel}
 * for the kernel release and host name, {@code /dev} for NVIDIA devices and KVM, and
 * {@code resolv.conf} for the upstream nameservers and the file kubelet gives pods. The proc and
 * host roots are overridable so a test can lay out a fake host in a temporary directory; reported
 * device and file paths are always the host's own ({@code /dev/...}, {@code /etc/resolv.conf}).
 */
public final class LinuxHostFacts implements HostFacts {

  private static final Path DEV = Path.of("/dev");

  private final Path procRoot;
  private final Path hostRoot;
  private final String osArch;

  /**
   * @param procRoot the proc file system, normally {@code /proc}
   * @param hostRoot the directory holding {@code dev}, {@code etc} and {@code run}, normally {@code /}
   * @param osArch the JVM's {@code os.arch}
   */
  public LinuxHostFacts(Path procRoot, Path hostRoot, String osArch) {
    this.procRoot = Objects.requireNonNull(procRoot, "procRoot");
    this.hostRoot = Objects.requireNonNull(hostRoot, "hostRoot");
    this.osArch = Objects.requireNonNull(osArch, "osArch");
  }

  @Override
  public HostInfo read() throws IOException {
    ResolvConf.Resolvers resolvers = resolvers();
    return new HostInfo(
        goArch(osArch),
        readTrimmed(procRoot.resolve("sys/kernel/osrelease")),
        readTrimmed(procRoot.resolve("sys/kernel/hostname")),
        gpuDevices(),
        Files.exists(hostPath("dev/kvm")),
        resolvers.upstreams(),
        resolvers.kubeletResolvConf());
  }

  /** Whether the effective uid in {@code /proc/self/status} is 0. */
  @Override
  public boolean privileged() throws IOException {
    for (String line : readTrimmed(procRoot.resolve("self/status")).split("\n")) {
      if (line.startsWith("Uid:")) {
        String[] ids = line.substring(4).strip().split("\\s+");
        return ids.length > 1 && ids[1].equals("0");
      }
    }
    throw new IOException("no Uid line in " + procRoot.resolve("self/status"));
  }

  /** The file names {@code /proc/swaps} lists below its header. */
  @Override
  public List<String> swaps() throws IOException {
    List<String> areas = new ArrayList<>();
    String[] lines = readIfPresent(procRoot.resolve("swaps")).orElse("").split("\n");
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i].strip();
      if (!line.isEmpty()) {
        areas.add(line.split("\\s+")[0]);
      }
    }
    return areas;
  }

  /** The usable space of the file system holding {@code path} below the host root. */
  @Override
  public long usableBytes(Path path) throws IOException {
    Path existing = hostRoot.resolve(path.toAbsolutePath().toString().replaceFirst("^/+", ""));
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      throw new NoSuchFileException(path.toString());
    }
    // statvfs(2) of the path itself: a FileStore looks its mount up in this process's mount
    // table, which does not list the mounts of another namespace's root (/proc/<pid>/root)
    long usable = existing.toFile().getUsableSpace();
    if (usable == 0 && !Files.exists(existing)) {
      throw new NoSuchFileException(existing.toString());
    }
    return usable;
  }

  /** The Go architecture name for a JVM {@code os.arch}. */
  public static String goArch(String osArch) {
    return switch (osArch.toLowerCase(Locale.ROOT)) {
      case "amd64", "x86_64" -> "amd64";
      case "aarch64", "arm64" -> "arm64";
      default -> osArch;
    };
  }

  /**
   * NVIDIA device nodes: every non-directory {@code /dev/nvidia*} and {@code /dev/nvidia-caps/*},
   * and, only when there is at least one of those, every non-directory {@code /dev/dri/*}; sorted.
   */
  private List<Path> gpuDevices() throws IOException {
    List<Path> devices = new ArrayList<>();
    for (String name : nonDirectories(hostPath("dev"))) {
      if (name.startsWith("nvidia")) {
        devices.add(DEV.resolve(name));
      }
    }
    for (String name : nonDirectories(hostPath("dev/nvidia-caps"))) {
      devices.add(DEV.resolve("nvidia-caps").resolve(name));
    }
    if (!devices.isEmpty()) {
      for (String name : nonDirectories(hostPath("dev/dri"))) {
        devices.add(DEV.resolve("dri").resolve(name));
      }
    }
    devices.sort(null);
    return devices;
  }

  private ResolvConf.Resolvers resolvers() throws IOException {
    String own = readIfPresent(hostPath("etc/resolv.conf")).orElse("");
    Optional<String> resolved = ResolvConf.pointsAtResolvedStub(ResolvConf.nameservers(own))
        ? readIfPresent(hostPath("run/systemd/resolve/resolv.conf"))
        : Optional.empty();
    return ResolvConf.resolvers(own, resolved);
  }

  private static List<String> nonDirectories(Path dir) throws IOException {
    List<String> names = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return names;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path entry : entries) {
        if (!Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
          names.add(String.valueOf(entry.getFileName()));
        }
      }
    } catch (NoSuchFileException e) {
      return names;
    } catch (IOException e) {
      throw IoErrors.translate(e, "list", dir);
    }
    return names;
  }

  @Override
  public String bootId() throws IOException {
    String id = readTrimmed(procRoot.resolve("sys/kernel/random/boot_id"));
    if (id.isEmpty()) {
      throw new IOException(procRoot.resolve("sys/kernel/random/boot_id") + " is empty");
    }
    return id;
  }

  private static String readTrimmed(Path file) throws IOException {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", file);
    }
  }

  private static Optional<String> readIfPresent(Path file) throws IOException {
    try {
      return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw IoErrors.translate(e, "read", file);
    }
  }

  private Path hostPath(String relative) {
    return hostRoot.resolve(relative);
  }
}
