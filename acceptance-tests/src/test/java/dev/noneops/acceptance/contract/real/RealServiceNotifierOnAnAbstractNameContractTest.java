package dev.noneops.acceptance.contract.real;

import java.util.UUID;

/** The notifier sending to a socket bound to an abstract name ({@code @name}), which leaves no file. */
class RealServiceNotifierOnAnAbstractNameContractTest extends RealServiceNotifierContract {
  @Override
  String socketAddress() {
    return "@noneops/notify-test/" + UUID.randomUUID();
  }
}
