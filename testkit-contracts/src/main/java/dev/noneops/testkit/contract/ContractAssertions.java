package dev.noneops.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.noneops.ports.Errno;
import dev.noneops.ports.HostIOException;
import java.util.Arrays;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Assertions shared by the contract suites. */
public final class ContractAssertions {
  private ContractAssertions() {}

  /** {@code call} fails with a {@link HostIOException} carrying one of {@code expected}. */
  public static void failsWith(ThrowingCallable call, Errno... expected) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            HostIOException.class,
            e -> assertThat(e.errno()).as("errno of: %s", e.getMessage()).isIn((Object[])
                Arrays.copyOf(expected, expected.length)));
  }
}
