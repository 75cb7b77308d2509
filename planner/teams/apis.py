"""Teams API: list and create teams, read one, manage its members (owners) and invitations.

An owner adds a member by inviting a username (``POST .../members/`` or ``.../invitations/``:
202, the same answer whether or not that user exists); the user joins by accepting
(``POST /api/invitations/<id>/accept/``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from planner.core.apis import validated
from planner.core.pagination import paginated_response

from . import invitations, selectors, services
from .access import require_owner
from .serializers import (
    InvitationOutputSerializer,
    MemberCreateSerializer,
    MemberOutputSerializer,
    MemberUpdateSerializer,
    TeamInputSerializer,
    TeamOutputSerializer,
    TeamUpdateSerializer,
)


class TeamListApi(APIView):
    @extend_schema(responses=TeamOutputSerializer(many=True), tags=["teams"])
    def get(self, request: Request) -> Response:
        return paginated_response(
            request=request,
            view=self,
            queryset=selectors.team_list(user=request.user),
            serializer_class=TeamOutputSerializer,
        )

    @extend_schema(request=TeamInputSerializer, responses={201: TeamOutputSerializer}, tags=["teams"])
    def post(self, request: Request) -> Response:
        data = validated(TeamInputSerializer, request)
        team = services.team_create(owner=request.user, name=data["name"], currency=data.get("currency", "$"))
        team = selectors.team_get(user=request.user, pk=team.pk)
        return Response(TeamOutputSerializer(team).data, status=status.HTTP_201_CREATED)


class TeamDetailApi(APIView):
    @extend_schema(responses=TeamOutputSerializer, tags=["teams"])
    def get(self, request: Request, pk: int) -> Response:
        return Response(TeamOutputSerializer(selectors.team_get(user=request.user, pk=pk)).data)

    @extend_schema(request=TeamUpdateSerializer, responses=TeamOutputSerializer, tags=["teams"])
    def patch(self, request: Request, pk: int) -> Response:
        team = selectors.team_get(user=request.user, pk=pk)
        data = validated(TeamUpdateSerializer, request)
        services.team_update(
            team=team, user=request.user, name=data.get("name"), currency=data.get("currency")
        )
        return Response(TeamOutputSerializer(selectors.team_get(user=request.user, pk=pk)).data)


class TeamMemberListApi(APIView):
    @extend_schema(responses=MemberOutputSerializer(many=True), tags=["teams"])
    def get(self, request: Request, pk: int) -> Response:
        team = selectors.team_get(user=request.user, pk=pk)
        return paginated_response(
            request=request,
            view=self,
            queryset=selectors.team_members(team=team),
            serializer_class=MemberOutputSerializer,
        )

    @extend_schema(
        request=MemberCreateSerializer,
        responses={202: InvitationOutputSerializer},
        tags=["teams"],
        summary="Invite a username (owners): they join when they accept",
    )
    def post(self, request: Request, pk: int) -> Response:
        return _invite(request, pk)


def _invite(request: Request, pk: int) -> Response:
    team = selectors.team_get(user=request.user, pk=pk)
    data = validated(MemberCreateSerializer, request)
    invitation = invitations.invitation_create(team=team, user=request.user, **data)
    return Response(InvitationOutputSerializer(invitation).data, status=status.HTTP_202_ACCEPTED)


class TeamInvitationListApi(APIView):
    @extend_schema(
        responses=InvitationOutputSerializer(many=True),
        tags=["teams"],
        summary="The team's open invitations (owners)",
    )
    def get(self, request: Request, pk: int) -> Response:
        team = selectors.team_get(user=request.user, pk=pk)
        require_owner(request.user, team, action="see the invitations")
        return paginated_response(
            request=request,
            view=self,
            queryset=invitations.team_invitations(team=team),
            serializer_class=InvitationOutputSerializer,
        )

    @extend_schema(
        request=MemberCreateSerializer,
        responses={202: InvitationOutputSerializer},
        tags=["teams"],
        summary="Invite a username (owners): they join when they accept",
    )
    def post(self, request: Request, pk: int) -> Response:
        return _invite(request, pk)


class TeamInvitationDetailApi(APIView):
    @extend_schema(responses={204: None}, tags=["teams"], summary="Withdraw an invitation (owners)")
    def delete(self, request: Request, pk: int, invitation_id: int) -> Response:
        team = selectors.team_get(user=request.user, pk=pk)
        invitation = invitations.team_invitation_get(user=request.user, team=team, pk=invitation_id)
        invitations.invitation_revoke(invitation=invitation, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MyInvitationListApi(APIView):
    @extend_schema(
        responses=InvitationOutputSerializer(many=True),
        tags=["teams"],
        summary="The invitations addressed to you",
    )
    def get(self, request: Request) -> Response:
        return paginated_response(
            request=request,
            view=self,
            queryset=invitations.invitations_for(user=request.user),
            serializer_class=InvitationOutputSerializer,
        )


class InvitationAcceptApi(APIView):
    @extend_schema(
        request=None,
        responses={201: MemberOutputSerializer},
        tags=["teams"],
        summary="Accept an invitation: join the team",
    )
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = invitations.invitation_get(user=request.user, pk=invitation_id)
        membership = invitations.invitation_accept(invitation=invitation, user=request.user)
        return Response(MemberOutputSerializer(membership).data, status=status.HTTP_201_CREATED)


class InvitationDeclineApi(APIView):
    @extend_schema(request=None, responses={204: None}, tags=["teams"], summary="Decline an invitation")
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = invitations.invitation_get(user=request.user, pk=invitation_id)
        invitations.invitation_decline(invitation=invitation, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamMemberDetailApi(APIView):
    @extend_schema(request=MemberUpdateSerializer, responses=MemberOutputSerializer, tags=["teams"])
    def patch(self, request: Request, pk: int, user_id: int) -> Response:
        membership = selectors.membership_get(user=request.user, team_pk=pk, user_pk=user_id)
        data = validated(MemberUpdateSerializer, request)
        membership = services.membership_update(membership=membership, user=request.user, role=data["role"])
        return Response(MemberOutputSerializer(membership).data)

    @extend_schema(responses={204: None}, tags=["teams"])
    def delete(self, request: Request, pk: int, user_id: int) -> Response:
        membership = selectors.membership_get(user=request.user, team_pk=pk, user_pk=user_id)
        services.membership_delete(membership=membership, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
