import Glibc
import POSIX
import Testing

/// ``Epoll`` registration and waits, and the ``EventNotifier`` wake-up from another thread.
@Suite struct EpollTests {
    @Test("another thread's notify ends a wait that would otherwise last 10 s")
    func wakeUpFromAnotherThread() throws {
        let epoll = try Epoll()
        let notifier = try EventNotifier()
        defer { try? notifier.close(); try? epoll.close() }
        let token: UInt64 = 0xFEED_FACE_CAFE_BEEF
        try epoll.add(notifier.descriptor, events: .readable, token: token)
        #expect(try epoll.wait(timeout: .zero).isEmpty, "nothing pending yet")

        let waker = try Fixture.startThread {
            usleep(50_000)
            try? notifier.notify()
        }
        let events = try epoll.wait(timeout: .seconds(10))
        pthread_join(waker, nil)
        #expect(events == [Epoll.Event(events: .readable, token: token)])
        try notifier.notify()
        #expect(try notifier.reset() == 2, "both notifications, merged into the counter")
        #expect(try notifier.reset() == 0)
        #expect(try epoll.wait(timeout: .zero).isEmpty, "reset made it quiet again")
    }

    @Test("add twice is EEXIST, modify/remove of an unknown descriptor is ENOENT, a wait after close is EBADF")
    func registrationErrors() throws {
        let epoll = try Epoll()
        let notifier = try EventNotifier()
        defer { try? notifier.close() }
        try epoll.add(notifier.descriptor, events: .readable)
        #expect(throws: SystemError("epoll_ctl", errno: .fileExists, subject: "<eventfd>")) {
            try epoll.add(notifier.descriptor, events: .readable)
        }
        try epoll.remove(notifier.descriptor)
        #expect(throws: SystemError("epoll_ctl", errno: .noSuchFileOrDirectory, subject: "<eventfd>")) {
            try epoll.remove(notifier.descriptor)
        }
        #expect(throws: SystemError("epoll_ctl", errno: .noSuchFileOrDirectory, subject: "<eventfd>")) {
            try epoll.modify(notifier.descriptor, events: .writable)
        }
        try epoll.close()
        #expect(throws: SystemError("epoll_wait", errno: .badFileDescriptor, subject: "<epoll>")) {
            try epoll.wait(timeout: .zero)
        }
    }

    @Test("the token defaults to the descriptor number; level-triggered events repeat, one-shot ones do not")
    func tokensAndTriggerModes() throws {
        let epoll = try Epoll()
        let notifier = try EventNotifier()
        defer { try? notifier.close(); try? epoll.close() }
        try notifier.notify()
        try epoll.add(notifier.descriptor, events: .readable)
        let expected = [Epoll.Event(events: .readable, token: UInt64(notifier.descriptor.rawValue))]
        #expect(try epoll.wait(timeout: .zero) == expected)
        #expect(try epoll.wait(timeout: .zero) == expected, "level-triggered: still readable")
        try epoll.modify(notifier.descriptor, events: [.readable, .oneShot], token: 9)
        #expect(try epoll.wait(timeout: .zero) == [Epoll.Event(events: .readable, token: 9)])
        #expect(try epoll.wait(timeout: .zero).isEmpty, "one-shot: disarmed until modified")
    }

    @Test("poll on several descriptors reports each one's events")
    func pollSeveral() throws {
        let quiet = try EventNotifier(), ready = try EventNotifier()
        defer { try? quiet.close(); try? ready.close() }
        try ready.notify()
        var entries = [PollEntry(quiet.descriptor, events: .readable), PollEntry(ready.descriptor, events: [.readable, .writable])]
        #expect(try Poll.wait(&entries, timeout: .milliseconds(100)) == 1)
        #expect(entries[0].returnedEvents.isEmpty)
        #expect(entries[1].returnedEvents == [.readable, .writable])
        try quiet.close()
        #expect(throws: SystemError("poll", errno: .badFileDescriptor, subject: "<eventfd>")) {
            try Poll.wait(&entries, timeout: .zero)
        }
    }
}
