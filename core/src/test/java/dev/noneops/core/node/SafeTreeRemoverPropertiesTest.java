package dev.noneops.core.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.core.node.TeardownResult.Kept;
import dev.noneops.core.node.internal.teardown.SafeTreeRemover;
import dev.noneops.ports.HostPorts;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.testkit.SimulatedHost;
import dev.noneops.testkit.fs.FileTreeSnapshot;
import dev.noneops.testkit.fs.SimFileSystem;
import dev.noneops.testkit.fs.SimFileSystem.MountKind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.slf4j.LoggerFactory;

/**
 * The mount-safe remover on arbitrary trees: directories, files, symlinks pointing out of the
 * tree, and tmpfs and bind mounts (of host directories) nested anywhere, some of them busy. Whatever
 * the tree, nothing outside the root changes, every mount left in place is byte-identical with
 * all below it and named in the report, and everything else below the root is gone.
 */
class SafeTreeRemoverPropertiesTest {
  private static final Path ROOT = Path.of("/var/lib/kubelet");

  enum Kind {
    DIRECTORY,
    FILE,
    SYMLINK_OUT,
    SYMLINK_UP,
    TMPFS,
    BIND
  }

  /** One entry to create: below which existing directory, what, and (for mounts) whether busy. */
  record Step(int parent, Kind kind, boolean busy) {}

  @Provide
  Arbitrary<List<Step>> trees() {
    Arbitrary<Step> step = Combinators.combine(
            Arbitraries.integers().between(0, 999),
            Arbitraries.of(Kind.values()),
            Arbitraries.of(true, false))
        .as(Step::new);
    return step.list().ofMinSize(1).ofMaxSize(30);
  }

  @Property(tries = 150)
  void nothingButWhatIsSafelyBelowTheRootIsEverRemoved(@ForAll("trees") List<Step> tree)
      throws Exception {
    SimulatedHost host = SimulatedHost.create();
    SimFileSystem fs = host.fs();
    fs.seedFile(Path.of("/etc/passwd"), "root:x:0:0::/root:/bin/sh\n", 0644);
    fs.seedDirectory(ROOT, 0755);
    build(host, tree);
    FileTreeSnapshot outside = fs.snapshot(Path.of("/"), p -> !Path.of(p).startsWith(ROOT));
    FileTreeSnapshot below = fs.snapshot(ROOT);
    HostPorts ports = host.ports();
    SafeTreeRemover remover = new SafeTreeRemover(
        ports.files(),
        ports.mounts(),
        ports.clock(),
        TeardownOptions.defaults(),
        LoggerFactory.getLogger(getClass()));

    TeardownResult report = TeardownResult.of(remover.remove(List.of(ROOT)));

    assertThat(fs.snapshot(Path.of("/"), p -> !Path.of(p).startsWith(ROOT)))
        .as("outside the root")
        .isEqualTo(outside);
    List<Path> stillMounted = fs.mountEntries().stream()
        .map(MountEntry::mountPoint)
        .filter(p -> p.startsWith(ROOT))
        .toList();
    assertThat(report.kept(KeepReason.STILL_MOUNTED).stream().map(Kept::subject).toList())
        .containsExactlyInAnyOrderElementsOf(
            stillMounted.stream().map(Path::toString).toList());
    for (String path : fs.snapshot(ROOT).paths()) {
      Path p = Path.of(path);
      boolean inKeptMount = stillMounted.stream().anyMatch(p::startsWith);
      boolean aboveKeptMount = stillMounted.stream().anyMatch(m -> m.startsWith(p) && !m.equals(p));
      assertThat(inKeptMount || aboveKeptMount)
          .as("%s was left though no mount kept it", p)
          .isTrue();
      if (inKeptMount) {
        assertThat(fs.snapshot(ROOT).entry(path))
            .as("%s untouched", p)
            .isEqualTo(below.entry(path));
      }
    }
    assertThat(report.complete()).isEqualTo(stillMounted.isEmpty());
  }

  private static void build(SimulatedHost host, List<Step> tree) throws Exception {
    SimFileSystem fs = host.fs();
    List<Path> dirs = new ArrayList<>(List.of(ROOT));
    List<Path> busy = new ArrayList<>();
    for (int i = 0; i < tree.size(); i++) {
      Step step = tree.get(i);
      Path at = dirs.get(step.parent() % dirs.size()).resolve("e" + i);
      switch (step.kind()) {
        case DIRECTORY -> {
          fs.seedDirectory(at, 0755);
          dirs.add(at);
        }
        case FILE -> fs.seedFile(at, "content " + i, 0644);
        case SYMLINK_OUT -> fs.seedSymlink(at, "/etc");
        case SYMLINK_UP -> fs.seedSymlink(at, "../".repeat(at.getNameCount()) + "srv");
        case TMPFS -> {
          fs.seedDirectory(at, 0755);
          fs.mount(at, MountKind.TMPFS, "tmpfs", "tmpfs", false);
          fs.seedFile(at.resolve("on-tmpfs"), "tmpfs " + i, 0644);
          dirs.add(at);
          if (step.busy()) {
            busy.add(at);
          }
        }
        case BIND -> {
          Path source = Path.of("/srv/host-" + i);
          fs.seedFile(source.resolve("data"), "host data " + i, 0600);
          fs.seedDirectory(at, 0755);
          fs.bindMount(source, at);
          dirs.add(at);
          if (step.busy()) {
            busy.add(at);
          }
        }
      }
    }
    for (Path point : busy) {
      fs.setBusy(point, true);
    }
  }
}
