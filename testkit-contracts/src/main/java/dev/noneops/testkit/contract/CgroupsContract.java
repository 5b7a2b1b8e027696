package dev.noneops.testkit.contract;

import static dev.noneops.testkit.contract.ContractAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.noneops.ports.Errno;
import dev.noneops.ports.process.Cgroups;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link Cgroups} contract. A subclass supplies the port and fixtures that create cgroups in a
 * subtree this test owns and start processes inside them; the suite is skipped without a unified
 * hierarchy.
 */
public abstract class CgroupsContract {

  protected abstract Cgroups cgroups();

  /**
   * Creates the cgroup {@code relative} (and missing parents) in this test's own subtree and
   * returns its path from the hierarchy's root, e.g. {@code /noneops-contract/x/a}.
   */
  protected abstract String createCgroup(String relative) throws Exception;

  /** A cgroup path in this test's subtree that does not exist. */
  protected abstract String missingCgroup();

  /** Starts a process that runs until killed inside {@code cgroup}; returns its pid. */
  protected abstract long startProcessIn(String cgroup) throws Exception;

  /** Waits until a process this fixture started has exited and been reaped. */
  protected abstract void awaitGone(long pid) throws Exception;

  /** Kills a process this fixture started and waits until it is reaped. */
  protected abstract void stopProcess(long pid) throws Exception;

  @BeforeEach
  void requireUnifiedHierarchy() {
    assumeThat(cgroups().available()).as("cgroup v2 available").isTrue();
  }

  @Test
  void aCreatedCgroupExistsAndAMissingOneDoesNot() throws Exception {
    String cg = createCgroup("exists");
    assertThat(cgroups().exists(cg)).isTrue();
    assertThat(cgroups().exists(missingCgroup())).isFalse();
  }

  @Test
  void childrenAreTheSortedPathsOfTheDirectChildren() throws Exception {
    String parent = createCgroup("parent");
    createCgroup("parent/b");
    createCgroup("parent/a");
    createCgroup("parent/a/deeper");
    assertThat(cgroups().children(parent)).containsExactly(parent + "/a", parent + "/b");
  }

  @Test
  void pidsListsTheProcessesOfThatCgroupAlone() throws Exception {
    String parent = createCgroup("pids");
    String child = createCgroup("pids/child");
    long pid = startProcessIn(child);
    try {
      assertThat(cgroups().pids(child)).containsExactly(pid);
      assertThat(cgroups().pids(parent)).doesNotContain(pid);
    } finally {
      stopProcess(pid);
    }
  }

  @Test
  void removingACgroupWithAProcessOrAChildFailsWithEbusy() throws Exception {
    String parent = createCgroup("busy");
    String child = createCgroup("busy/child");
    long pid = startProcessIn(child);
    try {
      failsWith(() -> cgroups().remove(child), Errno.EBUSY);
      failsWith(() -> cgroups().remove(parent), Errno.EBUSY);
    } finally {
      stopProcess(pid);
    }
  }

  @Test
  void killEndsEveryProcessOfTheSubtreeThenTheCgroupsCanBeRemoved() throws Exception {
    assumeThat(cgroups().supportsKill()).as("cgroup.kill supported").isTrue();
    String parent = createCgroup("kill");
    String child = createCgroup("kill/child");
    long a = startProcessIn(parent);
    long b = startProcessIn(child);
    cgroups().kill(parent);
    awaitGone(a);
    awaitGone(b);
    assertThat(cgroups().pids(parent)).isEmpty();
    cgroups().remove(child);
    cgroups().remove(parent);
    assertThat(cgroups().exists(parent)).isFalse();
  }

  @Test
  void removingAMissingCgroupFailsWithEnoent() {
    failsWith(() -> cgroups().remove(missingCgroup()), Errno.ENOENT);
  }
}
