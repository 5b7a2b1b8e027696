package dev.noneops.acceptance.contract.real;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.noneops.hostfs.RealHost;
import dev.noneops.hostfs.mounts.MountInfoParser;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.process.Cgroups;
import dev.noneops.testkit.contract.CgroupsContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The {@link Cgroups} contract on the machine's cgroup v2 hierarchy. Every cgroup lives below a
 * subtree of this test's own ({@code /noneops-contract-<id>}) holding only processes the test
 * started; the subtree is emptied and removed afterwards. Skipped without a writable unified
 * hierarchy.
 */
class RealCgroupsContractTest extends CgroupsContract {

  private static final Optional<Path> UNIFIED = unifiedMount();

  private final String subtree =
      "/noneops-contract-" + UUID.randomUUID().toString().substring(0, 8);
  private final StartedProcesses started = new StartedProcesses();
  private final Cgroups cgroups = RealHost.builder()
      .cgroupRoot(UNIFIED.orElse(Path.of("/nonexistent-cgroup2")))
      .build()
      .cgroups();

  private static Optional<Path> unifiedMount() {
    try {
      return MountInfoParser.parse(Files.readAllBytes(Path.of("/proc/self/mountinfo"))).stream()
          .filter(m -> m.fsType().equals("cgroup2"))
          .map(MountEntry::mountPoint)
          .findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  @BeforeEach
  void requireWritableHierarchy() {
    assumeTrue(UNIFIED.isPresent(), "no cgroup2 file system is mounted");
    assumeTrue(
        Files.isWritable(UNIFIED.get().resolve("cgroup.procs")),
        "the cgroup2 hierarchy is not writable by this user");
  }

  @AfterEach
  void removeSubtree() throws Exception {
    started.stopAll();
    if (UNIFIED.isEmpty()) {
      return;
    }
    Path top = UNIFIED.get().resolve(subtree.substring(1));
    if (!Files.isDirectory(top)) {
      return;
    }
    List<Path> dirs;
    try (Stream<Path> walk = Files.walk(top)) {
      dirs = walk.filter(Files::isDirectory)
          .sorted(Comparator.comparingInt(Path::getNameCount).reversed())
          .toList();
    }
    for (Path dir : dirs) {
      Files.delete(dir);
    }
  }

  @Override
  protected Cgroups cgroups() {
    return cgroups;
  }

  @Override
  protected String createCgroup(String relative) throws Exception {
    String path = subtree + "/" + relative;
    Files.createDirectories(UNIFIED.orElseThrow().resolve(path.substring(1)));
    return path;
  }

  @Override
  protected String missingCgroup() {
    return subtree + "/missing";
  }

  @Override
  protected long startProcessIn(String cgroup) throws Exception {
    long pid = started.start("contract-cgroup");
    Files.writeString(
        UNIFIED.orElseThrow().resolve(cgroup.substring(1)).resolve("cgroup.procs"),
        Long.toString(pid));
    return pid;
  }

  @Override
  protected void awaitGone(long pid) throws Exception {
    started.awaitGone(pid);
  }

  @Override
  protected void stopProcess(long pid) throws Exception {
    started.stop(pid);
  }
}
