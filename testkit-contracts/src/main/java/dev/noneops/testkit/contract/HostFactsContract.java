package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.noneops.ports.host.HostFacts;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link HostFacts} contract for the facts a preflight asks: whether this process is
 * privileged (its effective uid), the swap in use, and the space left on the file system of a path
 * (of its nearest existing ancestor when it does not exist yet), and the boot's id. A subclass supplies the port and
 * a way to set the host's side of each fact.
 */
public abstract class HostFactsContract {
  private static final long SLACK = 64L << 20;

  protected abstract HostFacts facts();

  /** Makes this process's effective uid 0 ({@code true}) or another, its real uid not 0. */
  protected abstract void runAs(boolean effectiveRoot) throws Exception;

  /** Makes {@code areas} (file names, as {@code /proc/swaps} lists them) the swap in use. */
  protected abstract void swapOn(List<String> areas) throws Exception;

  /** A directory that exists on the host, as the port's callers name it. */
  protected abstract Path existingDirectory() throws Exception;

  @Test
  void theEffectiveUidDecidesWhetherTheProcessIsPrivileged() throws Exception {
    runAs(true);
    assertThat(facts().privileged()).isTrue();
    runAs(false);
    assertThat(facts().privileged()).isFalse();
  }

  @Test
  void theSwapInUseIsListedAndNoneIsEmpty() throws Exception {
    swapOn(List.of());
    assertThat(facts().swaps()).isEmpty();
    swapOn(List.of("/swap.img", "/dev/vda2"));
    assertThat(facts().swaps()).containsExactly("/swap.img", "/dev/vda2");
  }

  @Test
  void aPathThatIsNotThereYetHasTheSpaceOfItsNearestExistingAncestor() throws Exception {
    Path dir = existingDirectory();
    long there = facts().usableBytes(dir);
    long below = facts().usableBytes(dir.resolve("not/there/yet"));
    assertThat(there).isPositive();
    assertThat(below).isBetween(there - SLACK, there + SLACK);
  }

  @Test
  void theBootIdIsTheSameAtEveryReadWithinABoot() throws Exception {
    String id = facts().bootId();
    assertThat(id).isNotBlank().isEqualTo(id.strip());
    assertThat(facts().bootId()).isEqualTo(id);
  }
}
