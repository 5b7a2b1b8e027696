package dev.noneops.testkit.contract;

import static dev.noneops.testkit.contract.ContractAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.Errno;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.mounts.MountEntry;
import dev.noneops.ports.mounts.MountTable;
import dev.noneops.ports.mounts.UnmountFlag;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The {@link MountTable} contract. A subclass supplies the port, the file port of the same
 * namespace, a fresh scratch directory and a {@link MountFixture} that mounts below it.
 */
public abstract class MountTableContract {

  protected abstract MountTable mountTable();

  /** The file port of the same mount namespace, to look at what a mount shows and hides. */
  protected abstract HostFiles files();

  /** An existing, empty, writable directory of this test. */
  protected abstract Path scratch();

  protected abstract MountFixture fixture();

  private Path p(String relative) {
    return scratch().resolve(relative);
  }

  private Optional<MountEntry> topmostAt(Path mountPoint) throws IOException {
    MountEntry top = null;
    for (MountEntry e : mountTable().mounts()) {
      if (e.mountPoint().equals(mountPoint)) {
        top = e;
      }
    }
    return Optional.ofNullable(top);
  }

  @Test
  void aNewMountIsListedWithItsIdAndAKnownParent() throws Exception {
    files().createDirectories(p("mnt"), 0755);
    fixture().mountFilesystem(p("mnt"));
    MountEntry entry = topmostAt(p("mnt")).orElseThrow();
    assertThat(entry.mountId()).isEqualTo(files().lstat(p("mnt")).orElseThrow().mountId());
    assertThat(mountTable().mounts()).extracting(MountEntry::mountId).contains(entry.parentId());
    assertThat(entry.root()).isEqualTo("/");
  }

  @Test
  void parentsAreListedBeforeTheMountsStackedOnThem() throws Exception {
    files().createDirectories(p("outer"), 0755);
    fixture().mountFilesystem(p("outer"));
    files().createDirectories(p("outer/inner"), 0755);
    fixture().mountFilesystem(p("outer/inner"));
    Set<Long> seen = new HashSet<>();
    List<MountEntry> mounts = mountTable().mounts();
    Set<Long> ids = new HashSet<>();
    mounts.forEach(m -> ids.add(m.mountId()));
    for (MountEntry m : mounts) {
      if (ids.contains(m.parentId()) && m.parentId() != m.mountId()) {
        assertThat(seen).as("parent of %s listed before it", m.mountPoint()).contains(m.parentId());
      }
      seen.add(m.mountId());
    }
  }

  @Test
  void unmountRemovesTheMountAndShowsWhatWasBelow() throws Exception {
    files().createDirectories(p("mnt"), 0755);
    files().writeDurably(p("mnt/underneath"), "x", 0644);
    fixture().mountFilesystem(p("mnt"));
    assertThat(files().list(p("mnt"))).doesNotContain("underneath");
    mountTable().unmount(p("mnt"), Set.of());
    assertThat(topmostAt(p("mnt"))).isEmpty();
    assertThat(files().list(p("mnt"))).containsExactly("underneath");
  }

  @Test
  void unmountingADirectoryThatIsNoMountPointFailsWithEinval() throws Exception {
    files().createDirectories(p("plain"), 0755);
    failsWith(() -> mountTable().unmount(p("plain"), Set.of()), Errno.EINVAL);
  }

  @Test
  void aBusyMountRefusesAPlainUnmountButNotALazyOne() throws Exception {
    files().createDirectories(p("mnt"), 0755);
    fixture().mountFilesystem(p("mnt"));
    files().writeDurably(p("mnt/open"), "x", 0644);
    AutoCloseable busy = fixture().keepBusy(p("mnt"));
    try {
      failsWith(() -> mountTable().unmount(p("mnt"), Set.of()), Errno.EBUSY);
      mountTable().unmount(p("mnt"), Set.of(UnmountFlag.DETACH));
      assertThat(topmostAt(p("mnt"))).isEmpty();
    } finally {
      busy.close();
    }
  }

  @Test
  void aMountWithAnotherMountBelowItIsBusy() throws Exception {
    files().createDirectories(p("outer"), 0755);
    fixture().mountFilesystem(p("outer"));
    files().createDirectories(p("outer/inner"), 0755);
    fixture().mountFilesystem(p("outer/inner"));
    failsWith(() -> mountTable().unmount(p("outer"), Set.of()), Errno.EBUSY);
    mountTable().unmount(p("outer/inner"), Set.of());
    mountTable().unmount(p("outer"), Set.of());
    assertThat(topmostAt(p("outer"))).isEmpty();
  }

  @Test
  void stackedMountsComeOffTopmostFirst() throws Exception {
    files().createDirectories(p("mnt"), 0755);
    fixture().mountFilesystem(p("mnt"));
    long lower = topmostAt(p("mnt")).orElseThrow().mountId();
    fixture().mountFilesystem(p("mnt"));
    long upper = topmostAt(p("mnt")).orElseThrow().mountId();
    assertThat(upper).isNotEqualTo(lower);
    mountTable().unmount(p("mnt"), Set.of());
    assertThat(topmostAt(p("mnt")).orElseThrow().mountId()).isEqualTo(lower);
    mountTable().unmount(p("mnt"), Set.of());
  }

  @Test
  void aBindMountOfASubdirectoryNamesItsRootAndSharesTheDevice() throws Exception {
    files().createDirectories(p("src/sub"), 0755);
    files().createDirectories(p("bind"), 0755);
    fixture().bindMount(p("src/sub"), p("bind"));
    MountEntry bind = topmostAt(p("bind")).orElseThrow();
    assertThat(bind.root()).endsWith("/sub");
    assertThat(files().lstat(p("bind")).orElseThrow().device())
        .isEqualTo(files().lstat(p("src/sub")).orElseThrow().device());
    mountTable().unmount(p("bind"), Set.of());
  }
}
