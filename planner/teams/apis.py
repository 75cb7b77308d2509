"""Teams API: list and create teams, read one, manage its members (owners)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from planner.core.apis import validated
from planner.core.pagination import paginated_response

from . import selectors, services
from .serializers import (
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

    @extend_schema(request=MemberCreateSerializer, responses={201: MemberOutputSerializer}, tags=["teams"])
    def post(self, request: Request, pk: int) -> Response:
        team = selectors.team_get(user=request.user, pk=pk)
        data = validated(MemberCreateSerializer, request)
        membership = services.membership_create(team=team, user=request.user, **data)
        return Response(MemberOutputSerializer(membership).data, status=status.HTTP_201_CREATED)


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

