import Foundation
import SwiftUI

@available(iOS, deprecated: 15.0, message: "Use MemberCard")
struct LegacyMemberRow: View {
    @ObservedObject var model: MemberListModel
    @State private var isExpanded = false
    let member: Member

    var body: some View {
        HStack {
            Text("\(member.displayName)")
            Text("\(member.role.title) since \(member.joined, style: .date)")
            Spacer()
            Button(action: { isExpanded.toggle() }) {
                Image(systemName: isExpanded ? "chevron.up" : "chevron.down")
            }
        }
        .onTapGesture { model.select(member) }
    }
}

@available(*, deprecated, renamed: "MemberListModel")
typealias MembersModel = MemberListModel

final class MemberListModel: ObservableObject {
    @Published private(set) var members: Array<Member> = []
    @Published var selection: Set<Member.ID> = []
    private var byTeam: Dictionary<String, Array<Member>> = [:]

    var names: [String] { members.map { $0.displayName } }
    var teamNames: [String] { members.map { $0.team }.map { $0.name } }
    var adminNames: [String] {
        members.filter { $0.isAdmin }.map { $0.displayName }
    }
    var hasMembers: Bool { members.count > 0 }
    var isEmpty: Bool { 0 == members.count }

    func select(_ member: Member) {
        selection = [member.id]
        objectWillChange.send()
    }

    func sorted(by keyPath: KeyPath<Member, String>) -> [Member] {
        members.sorted { $0[keyPath: keyPath] < $1[keyPath: keyPath] }
    }

    func teams() -> [String] {
        byTeam.keys.sorted().map { "\($0) (\(byTeam[$0]?.count ?? 0))" }
    }

    func load(from client: NetworkClient) async {
        do {
            let page = try await client.feed(page: 0)
            await MainActor.run { self.members = page.authors }
        } catch {
            print("members failed to load:", error)
        }
    }
}
