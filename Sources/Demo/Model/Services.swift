import AsyncReactive

/// The global model: the signed-in user, loaded once and shared by every screen (the source document's
/// singleton service).
///
/// ```swift
/// let user = try await users.user.value()   // loads once, then returns the held user
/// ```
final class UserService: Sendable {
  let user: Resource<User>

  init(api: FakeAPI) {
    user = Resource { try await api.user() }
  }
}

/// A per-screen model service: the account screen's profile, wallet and orders. Releasing it cancels its
/// requests still in flight.
///
/// ```swift
/// let service = AccountService(api: api)
/// let wallet = try await service.wallet.value()
/// ```
final class AccountService: Sendable {
  let profile: Resource<User>
  let wallet: Resource<Wallet>
  let orders: Resource<[Order]>

  init(api: FakeAPI) {
    profile = Resource { try await api.profile() }
    wallet = Resource { try await api.wallet(for: User(name: "Tom")) }
    orders = Resource { try await api.orders() }
  }
}

/// A per-screen model service holding the order list: `value()` is the "initial" operation (the held list,
/// or a request), `refresh()` asks the backend again.
///
/// ```swift
/// let service = OrdersService(api: api)
/// let orders = try await service.orders.refresh()
/// ```
final class OrdersService: Sendable {
  let orders: Resource<[Order]>

  init(api: FakeAPI) {
    orders = Resource { try await api.orders() }
  }
}
